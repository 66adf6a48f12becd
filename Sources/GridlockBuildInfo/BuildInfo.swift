// What this binary was built from, compiled in (BuildInfoPlugin): `gridlock --version` prints
// it and every batch records it.

public enum BuildInfo {
    /// The commit's full hash, or what GRIDLOCK_REVISION said at build time, or "unknown".
    public static let revision = generatedRevision
    /// Whether the checkout had uncommitted changes to tracked files when it was built.
    public static let dirty = generatedDirty

    public static var configuration: String {
        #if DEBUG
        "debug"
        #else
        "release"
        #endif
    }

    /// The revision as batches record it: 12 digits, "-dirty" when it was.
    public static var shortRevision: String {
        let short = revision.count == 40 ? String(revision.prefix(12)) : revision
        return dirty ? short + "-dirty" : short
    }

    /// `gridlock --version`'s line.
    public static var versionLine: String {
        "gridlock revision \(shortRevision) (\(revision)\(dirty ? ", uncommitted changes" : "")), \(configuration) build"
    }
}
