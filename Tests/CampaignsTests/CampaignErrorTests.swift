import Foundation
import Testing

@testable import Campaigns

/// Campaigns has one public error enum: the recipient-data problems and unusable columns are its cases, with
/// the messages they had, and each case says its audience.
@Suite struct CampaignErrorTests {
    @Test func recipientDataAndColumnsAreCampaignErrors() throws {
        #expect {
            try RecipientData(data: Data("name\nAda\n".utf8), fileName: "g.csv")
        } throws: { error in
            guard case CampaignError.recipientData(.noJoinColumn("g.csv", ["name"])) = error else { return false }
            return "\(error)" == "g.csv:1: no 'id' or 'email' column to join recipients on (columns: name)"
        }
        let column = CampaignError.column(column: "cc", reason: "expected addresses as text", origin: "g.csv:3")
        #expect("\(column)" == "g.csv:3: column 'cc': expected addresses as text")
        #expect("\(CampaignError.column(column: "cc", reason: "r", origin: nil))" == "column 'cc': r")
    }

    @Test func casesAreSplitByAudience() {
        #expect(CampaignError.recipientData(.empty(file: "e.csv")).isUsageError)
        #expect(CampaignError.sampleBook.isUsageError)
        #expect(CampaignError.unknownContact(id: "x").isUsageError)
    }
}
