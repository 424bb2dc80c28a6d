import Accounts
import ArgumentParser

/// `past-nyc moderators add USERNAME`.
struct AddModeratorCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add", abstract: "Make the account USERNAME (any case) a moderator.")

    @Argument(help: "The account's username, in any case.")
    var username: String

    @OptionGroup var storage: StorageOptions

    func run() throws {
        try UserRoles.assign(.moderator, toUsername: username, in: storage.openUserData())
        print("\(username) is a moderator")
    }
}
