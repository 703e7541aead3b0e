/// Precision and recall of found duplicate groups against planted ones, counted over pairs of ids (a group
/// of n is n(n−1)/2 pairs).
public struct DuplicateScore: Sendable, CustomStringConvertible {
    public var truePairs: Int
    public var foundPairs: Int
    public var plantedPairs: Int

    public init(found: [[String]], truth: [[String]]) {
        func pairs(_ groups: [[String]]) -> Set<[String]> {
            var out: Set<[String]> = []
            for group in groups {
                for (k, a) in group.enumerated() { for b in group[(k + 1)...] { out.insert([a, b].sorted()) } }
            }
            return out
        }
        let f = pairs(found)
        let t = pairs(truth)
        truePairs = f.intersection(t).count
        foundPairs = f.count
        plantedPairs = t.count
    }

    public var precision: Double { foundPairs == 0 ? 1 : Double(truePairs) / Double(foundPairs) }
    public var recall: Double { plantedPairs == 0 ? 1 : Double(truePairs) / Double(plantedPairs) }
    public var description: String {
        "precision \(truePairs)/\(foundPairs), recall \(truePairs)/\(plantedPairs)"
    }
}
