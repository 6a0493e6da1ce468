import ListDiff
import Testing

@Suite("ListIndexPath")
struct ListIndexPathTests {
    @Test func ordersBySectionThenItem() {
        let paths = [ListIndexPath(item: 3, section: 1), ListIndexPath(item: 9, section: 0), ListIndexPath(item: 0, section: 1)]
        #expect(paths.sorted() == [ListIndexPath(item: 9, section: 0), ListIndexPath(item: 0, section: 1), ListIndexPath(item: 3, section: 1)])
        #expect(ListIndexPath(item: 2, section: 5).description == "[5, 2]")
    }
}
