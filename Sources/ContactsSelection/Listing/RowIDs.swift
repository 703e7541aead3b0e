/// The one rule for finding a row by its contact id in a listing that keeps rows by number: the first row
/// of an id wins (as ``ContactsDataSource/rowNumber(id:)`` keeps it).
enum RowIDs {
    static func index(rowCount: Int, id: (Int) -> String) -> [String: Int32] {
        var byID: [String: Int32] = [:]
        byID.reserveCapacity(rowCount)
        for number in 0..<rowCount {
            let key = id(number)
            if byID[key] == nil { byID[key] = Int32(number) }
        }
        return byID
    }
}
