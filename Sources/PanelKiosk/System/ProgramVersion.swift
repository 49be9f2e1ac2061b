import PanelHost

/// The program's version: `panel-refresh --version`, the HTTP `User-Agent`, `ctl status` and
/// the metrics. `scripts/package` reads it from here for the packages' version.
public enum ProgramVersion {
    /// The version, as `MAJOR.MINOR.PATCH`.
    public static let current = "0.1.0"
}
