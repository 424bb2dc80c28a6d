import Accounts
import ArgumentParser

/// `past-nyc moderators list`: one username a line, as registered, in case-insensitive order.
struct ListModeratorsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "Print the moderators' usernames, one a line.")

    @OptionGroup var storage: StorageOptions

    func run() throws {
        for username in try UserRoles.usernames(holding: .moderator, in: storage.openUserData()) {
            print(username)
        }
    }
}
