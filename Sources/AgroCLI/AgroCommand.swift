import AgroDomain
import ArgumentParser

/// A command of agro: it takes the global options (catalog, language, format), and through them
/// the stores the program's `main` chose, which `Program.run` hands over before it runs.
package protocol AgroCommand: ParsableCommand {
    var global: GlobalOptions { get set }
}

extension AgroCommand {
    /// This command with `stores` in its global options.
    package func given(_ stores: any StoreOpener) -> Self {
        var command = self
        command.global.stores = stores
        return command
    }
}
