import ArgumentParser

@main
struct PastNYC: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "past-nyc",
        abstract: "The PAST NYC API server: Old NYC photographs near you.",
        subcommands: [
            ServeCommand.self, ImportCommand.self, TourGainCommand.self, CopyUserDataCommand.self, BackupCommand.self,
            RestoreCommand.self, ModeratorsCommand.self, ImagesCommand.self,
        ],
        defaultSubcommand: ServeCommand.self
    )
}
