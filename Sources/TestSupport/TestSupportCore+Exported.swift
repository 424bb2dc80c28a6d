// Every test that imports TestSupport also gets the server-free helpers (temporary
// directories, the seeded generator, the package root) without a second import.
@_exported import TestSupportCore
