import Accounts
import ArgumentParser

/// `past-nyc moderators remove USERNAME`.
struct RemoveModeratorCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove", abstract: "Make the moderator USERNAME (any case) a user like any other again.")

    @Argument(help: "The account's username, in any case.")
    var username: String

    @OptionGroup var storage: StorageOptions

    func run() throws {
        try UserRoles.assign(.user, toUsername: username, in: storage.openUserData())
        print("\(username) is not a moderator")
    }
}
