import ArgumentParser

/// `past-nyc images`: the operator's commands on the disk copy of the photographs.
struct ImagesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "images",
        abstract: "Manage the disk copy of the photographs.",
        subcommands: [PrefetchCommand.self]
    )
}
