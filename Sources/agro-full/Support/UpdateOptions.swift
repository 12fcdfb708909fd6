import AgroCLI
import AgroPresentation
import ArgumentParser
import Foundation

/// Where catalog updates come from: `agro db check` and `agro db update`.
struct UpdateOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Update server: the URL of a publishing directory (else AGRO_UPDATE_SERVER, else update.server).",
            valueName: "url"))
    var server: String?

    @Option(
        help: ArgumentHelp(
            "Trusted publisher key, PREFIX.pub; repeat for several (else AGRO_TRUST, :-separated, else update.trust).",
            valueName: "file.pub"))
    var trust: [String] = []

    @Flag(help: "Allow plain http to hosts other than loopback (else AGRO_INSECURE=1, else update.insecure).")
    var insecure = false

    @Option(
        help: ArgumentHelp(
            "Accept only this catalog identity from the server, even on a first install (else AGRO_UPDATE_IDENTITY, else update.identity).",
            valueName: "identity"))
    var identity: String?
}
