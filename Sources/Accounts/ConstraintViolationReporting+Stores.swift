import Postgres
import SQLite

extension SQLiteError: ConstraintViolationReporting {}
extension PostgresError: ConstraintViolationReporting {}
