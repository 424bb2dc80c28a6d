import Accounts
import ArgumentParser

enum PasswordCostSetting: String, ExpressibleByArgument {
    case owasp, test
    var cost: ScryptCost { self == .owasp ? .owasp : .test }
}
