import ArgumentParser

/// `past-nyc moderators add|remove|list`: who may decide feedback. Changes the user data
/// in place while servers run on it; every server reads a user's role with each request
/// that needs it, so the change holds from the next request on, on every instance.
struct ModeratorsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "moderators",
        abstract: "Name or remove the moderators who decide feedback, or list them (while servers run).",
        subcommands: [AddModeratorCommand.self, RemoveModeratorCommand.self, ListModeratorsCommand.self]
    )
}
