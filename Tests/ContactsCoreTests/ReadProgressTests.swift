import Foundation
import Support
import Synchronization
import TestSupport
import Testing

@testable import ContactsCore

/// A read given a `WorkProgress` expects the bytes it will read and advances to exactly them, never
/// backwards: a file streamed in pieces (advanced within a piece every `progressStride` cards) and a vdir
/// folder (advanced per file).
@Suite struct ReadProgressTests {
    /// The progress seen from inside the read, contact by contact, per piece.
    typealias Samples = [Int]

    func check(_ stream: VCardReader.Stream<Samples>, progress: WorkProgress, bytes: Int) {
        #expect(progress.total == bytes)
        #expect(progress.done == bytes)
        #expect(progress.fraction == 1)
        for samples in stream.pieces {
            #expect(!samples.isEmpty)
            #expect(zip(samples, samples.dropFirst()).allSatisfy { $0 <= $1 }, "progress went backwards")
            #expect(samples.allSatisfy { $0 <= bytes })
        }
        let all = stream.pieces.flatMap { $0 }
        #expect(all.contains { $0 > 0 && $0 < bytes }, "the progress moved during the read, not only at its end")
    }

    @Test func aStreamedFileAdvancesToItsSize() throws {
        let cards = VCardReader.progressStride * 3 + 17
        let text = VCardBookGenerator.book(cards: cards, seed: 11)
        let url = Scratch.path("progress", suffix: ".vcf")
        try Scratch.write(text, to: url)
        let progress = WorkProgress()
        #expect(progress.fraction == nil)
        let stream = try VCardReader.stream(
            contentsOfFile: url.path, makePiece: { Samples() }, progress: progress,
            { samples, _ in samples.append(progress.done) })
        check(stream, progress: progress, bytes: text.utf8.count)
    }

    @Test func dataReadInPiecesOnSeveralThreadsAdvancesToItsSize() {
        let data = Data(VCardBookGenerator.book(cards: VCardReader.progressStride * 4, seed: 12).utf8)
        let progress = WorkProgress()
        let stream = VCardReader.stream(
            data: data, fileName: "book.vcf", releasingPagesRead: false, makePiece: { Samples() },
            { samples, _ in samples.append(progress.done) }, maxChunks: 4, threads: 2, minChunkSize: 2_048,
            progress: progress)
        #expect(stream.pieces.count == 4)
        check(stream, progress: progress, bytes: data.count)
    }

    @Test func aVdirAdvancesByEachCardFile() throws {
        let folder = try Scratch.directory("progress-vdir")
        var bytes = 0
        for k in 0..<12 {
            let card = VCardBookGenerator.book(cards: 1 + k % 3, seed: UInt64(20 + k))
            try Scratch.write(card, to: folder.appendingPathComponent("card\(k).vcf"))
            bytes += card.utf8.count
        }
        try Scratch.write("not a card", to: folder.appendingPathComponent("displayname"))
        let progress = WorkProgress()
        let contents = try VDir(path: folder.path).contents(progress: progress)
        #expect(!contents.book.contacts.isEmpty)
        #expect(progress.total == bytes)
        #expect(progress.done == bytes)
        #expect(progress.fraction == 1)
    }
}
