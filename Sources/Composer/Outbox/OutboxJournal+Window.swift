import Foundation

extension OutboxJournal {
    /// How many messages the journal records as sent at or after `date` (for the daily cap); lines that
    /// do not parse are not counted.
    func sentCount(since date: Date) -> Int {
        guard let data = FileManager.default.contents(atPath: path) else { return 0 }
        let decoder = JSONDecoder()
        let since = date.timeIntervalSince1970
        var ids = Set<String>()
        for line in data.split(separator: 0x0A) {
            guard let record = try? decoder.decode(Record.self, from: line), record.event == .sent,
                record.at >= since
            else { continue }
            ids.insert(record.id)
        }
        return ids.count
    }
}
