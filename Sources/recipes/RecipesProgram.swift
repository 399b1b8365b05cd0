import RecipesCommandLine

/// `recipes`: browsing and editing run here; `sync`, `serve`, `web` and seeding a new store
/// from its remote are handed to `recipes-network` (``NetworkHandoff``), so this program
/// starts without the network stack.
@main
enum RecipesProgram {
    static func main() {
        RecipesCommand.runWaiting(network: NetworkHandoff())
    }
}
