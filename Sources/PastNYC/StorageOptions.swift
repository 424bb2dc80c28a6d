import ArgumentParser

/// Where the server keeps its databases and reads its source data.
struct StorageOptions: ParsableArguments {
    @Option(help: "Folder for the SQLite databases (catalog, accounts); created if missing.")
    var dataDir = "./var"

    @Option(help: "Folder with the catalog source files and common-passwords.txt.")
    var sourceDir = "./Data"
}
