import RecipesCommandLine

/// `recipes-network`: the whole `recipes` program with the network stack linked in. `recipes`
/// hands it `sync`, `serve`, `web` and the seeding of a new store from its remote; run
/// directly, it takes every command as `recipes` does.
@main
enum RecipesNetworkProgram {
    static func main() {
        RecipesCommand.runWaiting(network: NetworkCommandRunner())
    }
}
