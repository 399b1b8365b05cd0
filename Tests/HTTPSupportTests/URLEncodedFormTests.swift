import HTTPSupport
import Testing

/// Form and query text read into its pairs, in order, with repeated names kept.
@Suite struct URLEncodedFormTests {
    @Test func pairsInOrder() {
        let pairs = URLEncodedForm.pairs("amount=1+cup&ingredient=flour&amount=2&ingredient=sugar%20%26+salt")
        #expect(pairs.map(\.name) == ["amount", "ingredient", "amount", "ingredient"])
        #expect(pairs.map(\.value) == ["1 cup", "flour", "2", "sugar & salt"])
    }

    @Test func emptyPiecesAndBareNames() {
        let pairs = URLEncodedForm.pairs("&&flag&a=&=v&b=x=y")
        #expect(pairs.map(\.name) == ["flag", "a", "", "b"])
        #expect(pairs.map(\.value) == ["", "", "v", "x=y"])
    }

    @Test func malformedEscapesStayUndecoded() {
        let pairs = URLEncodedForm.pairs("key=%ZZ+x&n%2=1")
        #expect(pairs.map(\.name) == ["key", "n%2"])
        #expect(pairs.map(\.value) == ["%ZZ x", "1"])
    }
}
