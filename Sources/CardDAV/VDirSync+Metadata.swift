import ContactsCore
import Foundation

/// The address book's display name and colour, kept in step with the folder's `displayname` and `color`
/// files (vdirsyncer's metadata): each sync reads them on the server (one PROPFIND, unless discovery just
/// did), compares both sides with the value they last agreed on (kept in the sync state), writes a
/// server change here and sends a local change with PROPPATCH. Changed differently on both sides, the
/// server's value is kept and yours is named in ``SyncSummary/metadataConflicts``. A missing file is no
/// change: the server's value is written again.
extension VDirSync {
    /// Syncs the metadata (as `known` gives them when discovery read them in this sync).
    func syncMetadata(known: CollectionProperties?) throws {
        let server: CollectionProperties
        do {
            guard let found = try known ?? client.properties(of: state.collection) else { return }
            server = found
        } catch let error as CardDAVError {
            switch error {
            case .status, .badAnswer:
                notes.append("the address book's display name and colour could not be read (\(error))")
                return
            default: throw error
            }
        }
        let vdir = VDir(path: folder)
        var toSend: [(name: String, value: String)] = []
        for name in CardDAVClient.metadataNames {
            let agreed = state.metadata[name]
            let theirs = server[metadata: name]
            let file = vdir.metadata(name)
            let mine = file ?? agreed
            if mine == agreed || mine == theirs {
                // Unchanged here (or the same change on both sides): the server's value.
                if try writeMetadata(name, theirs) {
                    summary.metadataReceived.append(name)
                }
                state.metadata[name] = theirs
            } else if theirs == agreed, let mine {
                // Changed here only.
                if readOnly {
                    summary.notSent += 1
                } else {
                    toSend.append((name, mine))
                }
            } else {
                summary.metadataConflicts.append(MetadataConflict(name: name, mine: mine ?? "", theirs: theirs))
                try writeMetadata(name, theirs)
                state.metadata[name] = theirs
            }
        }
        guard !toSend.isEmpty else { return }
        try attempt(toSend.map(\.name).joined(separator: ", ")) {
            try client.setProperties(of: state.collection, toSend, current: server)
            for (name, value) in toSend {
                state.metadata[name] = value
                summary.metadataSent.append(name)
            }
        }
    }
}
