import ArgumentParser

@main
struct PastNYC: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "past-nyc",
        abstract: "The PAST NYC API server: historical photos of New York near you."
    )
}
