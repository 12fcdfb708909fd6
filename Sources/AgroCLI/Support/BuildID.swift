/// Which build `agro` and `agro-full` come from. `agro` hands command lines over to
/// `agro-full` beside it, so the two must come from the same sources: `scripts/install` writes a
/// fresh value here for its build of both and checks that each installed program reports it
/// (`--build-id`); a plain `swift build` leaves "dev".
package enum BuildID {
    package static let value = "dev"

    /// The environment variable through which `agro` tells `agro-full` its build.
    package static let variable = "AGRO_BUILD_ID"
}
