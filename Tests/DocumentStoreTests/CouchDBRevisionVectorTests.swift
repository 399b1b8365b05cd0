import DocumentFormat
import DocumentStore
import Foundation
import Testing

/// Revision IDs recorded from a live CouchDB 3.4.3, so a fresh clone checks the hash with no
/// CouchDB running: each document text was PUT to CouchDB as it stands here, and the ID it
/// answered (or its refusal) is what RevisionHasher must give for the same text.
/// `RevisionIDLiveTests` (CouchServerTests) checks the same against a live server.
@Suite("Revision IDs as CouchDB 3.4.3 makes them (recorded vectors)")
struct CouchDBRevisionVectorTests {
    /// One recorded write: the JSON text sent, the parent revision, the attachments the new
    /// revision holds (name, content type, bytes) and the ID CouchDB gave (nil: it refused).
    struct Vector: Sendable, CustomTestStringConvertible {
        let json: String
        let parent: String?
        let attachments: [(name: String, type: String, data: String)]
        let rev: String?

        init(_ json: String, parent: String?, attachments: [(String, String, String)], rev: String?) {
            self.json = json
            self.parent = parent
            self.attachments = attachments.map { (name: $0.0, type: $0.1, data: $0.2) }
            self.rev = rev
        }

        var testDescription: String { json.count > 60 ? String(json.prefix(60)) + "…" : json }

        var infos: [String: AttachmentInfo] {
            Dictionary(uniqueKeysWithValues: attachments.map { attachment in
                let bytes = Data(attachment.data.utf8)
                return (attachment.name, AttachmentInfo(contentType: attachment.type, length: bytes.count,
                                                        digest: RevisionHasher.attachmentDigest(bytes), revpos: 1))
            })
        }

        var deleted: Bool {
            (try? JSONValue.parse(Data(json.utf8)))?.objectValue?["_deleted"] == true
        }
    }

    static let vectors: [Vector] = [
        Vector(#"{}"#, parent: nil, attachments: [], rev: "1-967a00dff5e02add41819138abb3284d"),
        Vector(#"{"b":1,"a":[true,false,null,"x",1.5,-3,300,70000,-1]}"#, parent: nil, attachments: [], rev: "1-8ca70a1a1493277eedb9deb4374b7938"),
        Vector(#"{"a":1.0}"#, parent: nil, attachments: [], rev: "1-8a159b695bf2bd957f1a435bfd6e1739"),
        Vector(#"{"a":1e3}"#, parent: nil, attachments: [], rev: "1-c2c73c729063d25a7690bf8c863c4568"),
        Vector(#"{"a":1E+3}"#, parent: nil, attachments: [], rev: "1-c2c73c729063d25a7690bf8c863c4568"),
        Vector(#"{"a":-0}"#, parent: nil, attachments: [], rev: "1-dcf485487e051d7f9b7c62bd4265a425"),
        Vector(#"{"a":-0.0}"#, parent: nil, attachments: [], rev: "1-79e62e17829588afea5328e32c7e34af"),
        Vector(#"{"a":1.5e-7}"#, parent: nil, attachments: [], rev: "1-f1bbfdd6238748d9c369d72a25194422"),
        Vector(#"{"a":123456789012345678901234567890}"#, parent: nil, attachments: [], rev: "1-da1bd830ce681811ea5692e0ec6bd683"),
        Vector(#"{"a":-9223372036854775809}"#, parent: nil, attachments: [], rev: "1-d7430b145a784f813a500d355bd26d42"),
        Vector(#"{"a":9223372036854775807}"#, parent: nil, attachments: [], rev: "1-729be045ef8a718380903269c1be0189"),
        Vector(#"{"a":-9223372036854775808}"#, parent: nil, attachments: [], rev: "1-bfe9588fe6abc84c376c342a4dd6c2ef"),
        Vector(#"{"a":18446744073709551616}"#, parent: nil, attachments: [], rev: "1-02621d7913faebde4c9d1efebd8500b4"),
        Vector(#"{"a":"\u00e9\n\/\"\\\b\f\r\t"}"#, parent: nil, attachments: [], rev: "1-8ded05e35bc0395f32448aa18e251662"),
        Vector(#"{"a":"\ud83d\ude00 é 😀"}"#, parent: nil, attachments: [], rev: "1-b699804e19ffbee295e30e27dbb0b98a"),
        Vector(#"{"a":1,"a":2}"#, parent: nil, attachments: [], rev: "1-3975759ccff3842adf690a5c10caee42"),
        Vector(#"{"a":1,"b":3,"a":2}"#, parent: nil, attachments: [], rev: "1-ba52ac640c827d1ebf56ee7b46577c5c"),
        Vector(#"{"a":{"x":1,"x":[2]}}"#, parent: nil, attachments: [], rev: "1-c95bbc840b0901ea5d2f316a0112b142"),
        Vector(#"{"a":1e400}"#, parent: nil, attachments: [], rev: nil),
        Vector(#"{"a":"\ud800"}"#, parent: nil, attachments: [], rev: nil),
        Vector(#"{"a":"\udc00x"}"#, parent: nil, attachments: [], rev: nil),
        Vector(#"{"a":"\ud800\ud800"}"#, parent: nil, attachments: [], rev: nil),
        Vector(#"{"a":1e-400}"#, parent: nil, attachments: [], rev: "1-f8fc1b07134fb0e1af62a5cb42046ee1"),
        Vector(#"{"a":12345678901234567890.5}"#, parent: nil, attachments: [], rev: "1-cc6fc4d3e76e06d1672fae2d059d8bcb"),
        Vector(#"{"a":"\u0000"}"#, parent: nil, attachments: [], rev: "1-ef3e46caa2b1304d75780c92d40a2067"),
        Vector(#"{"a":5e-324}"#, parent: nil, attachments: [], rev: "1-f8fc1b07134fb0e1af62a5cb42046ee1"),
        Vector(#"{"a":7e-324}"#, parent: nil, attachments: [], rev: "1-f8fc1b07134fb0e1af62a5cb42046ee1"),
        Vector(#"{"a":4.9e-324}"#, parent: nil, attachments: [], rev: "1-f482c46cb65c44053c2de1cce02e45bc"),
        Vector(#"{"a":-5e-324}"#, parent: nil, attachments: [], rev: "1-79e62e17829588afea5328e32c7e34af"),
        Vector(#"{"a":123e-320}"#, parent: nil, attachments: [], rev: "1-6a12f20147a6c1d825cbf6ea04c51609"),
        Vector(#"{"a":12345678901234567890123456789012345e-5}"#, parent: nil, attachments: [], rev: "1-cbb262c6d338c2aaaea675f2b1f7e667"),
        Vector(#"{"a":12345678901234567890123456789012345e5}"#, parent: nil, attachments: [], rev: "1-de408fd020004a420ef4ef3081be784d"),
        Vector(#"{"a":1234567890123456789012345678e5}"#, parent: nil, attachments: [], rev: "1-bdd09630fdf1bccb4743ccfa28200afe"),
        Vector(#"{"a":0e0}"#, parent: nil, attachments: [], rev: "1-f8fc1b07134fb0e1af62a5cb42046ee1"),
        Vector(#"{"a":-0e-400}"#, parent: nil, attachments: [], rev: "1-79e62e17829588afea5328e32c7e34af"),
        Vector(#"{"a":1.7976931348623157e308}"#, parent: nil, attachments: [], rev: "1-659564c6549b246f4f078d46978ad9d3"),
        Vector(#"{"a":2e308}"#, parent: nil, attachments: [], rev: nil),
        Vector(#"{"a":179769313486231570000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000}"#, parent: nil, attachments: [], rev: "1-9da44bd497f7027a8abedd44ba1c518a"),
        Vector(#"{"a":200000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000}"#, parent: nil, attachments: [], rev: nil),
        Vector(#"{"a":255,"b":256,"c":-1,"d":2147483647,"e":2147483648,"f":-2147483648,"g":-2147483649}"#, parent: nil, attachments: [], rev: "1-02df638abd751ae2c74736e1c3e56f9e"),
        Vector(#"{ "a" : [ 1 , { } , [ ] ] , "b" : { "c" : null } }"#, parent: nil, attachments: [], rev: "1-d69d2a97fca2d3e5089b32839a61f6dc"),
        Vector(#"{"_replication_state":"triggered","a":1}"#, parent: nil, attachments: [], rev: "1-f1572feb7f16068f25d4168a81615077"),
        Vector(#"{"_attachments":{},"a":1}"#, parent: nil, attachments: [], rev: "1-23202479633c2b380f79507a776743d5"),
        Vector(#"{"a":[],"b":{},"c":""}"#, parent: nil, attachments: [], rev: "1-ff0fe160264fec678b4ddcb0e1652f7f"),
        Vector(#"{"k\u00e9y":1,"ké":2}"#, parent: nil, attachments: [], rev: "1-de54b4887ef532a4db492c3f3d0345ab"),
        Vector(#"{"a":1e22,"b":1e23,"c":9007199254740993,"d":9007199254740993.0,"e":0.1e1,"f":100E-2}"#, parent: nil, attachments: [], rev: "1-ece8e3e7a9a97ff6d2e23cbf8ec7de5a"),
        Vector(#"{"title":"Soup","n":1,"_attachments":{"b.png":{"content_type":"image/png","data":"aGVsbG8="},"a.bin":{"content_type":"application/octet-stream","data":"eW8="}}}"#, parent: nil, attachments: [("b.png", "image/png", "hello"), ("a.bin", "application/octet-stream", "yo")], rev: "1-dad0b5d8259e2f31412356a3a243949f"),
        Vector(#"{"_id":"chain","_rev":"1-dad0b5d8259e2f31412356a3a243949f","n":2,"title":"Soup","_attachments":{"a.bin":{"stub":true},"b.png":{"stub":true}}}"#, parent: "1-dad0b5d8259e2f31412356a3a243949f", attachments: [("b.png", "image/png", "hello"), ("a.bin", "application/octet-stream", "yo")], rev: "2-2c54fcff7ff36d6091e63a26ea072186"),
        Vector(#"{"_rev":"2-2c54fcff7ff36d6091e63a26ea072186","n":3,"_attachments":{"b.png":{"stub":true}}}"#, parent: "2-2c54fcff7ff36d6091e63a26ea072186", attachments: [("b.png", "image/png", "hello")], rev: "3-b727785d560c2f07f515693c55feedbc"),
        Vector(#"{"_rev":"3-b727785d560c2f07f515693c55feedbc","_deleted":true,"why":"gone"}"#, parent: "3-b727785d560c2f07f515693c55feedbc", attachments: [], rev: "4-377b56d8ea85ba8ac9ae86236858e2e0"),
        Vector(#"{"again":[1,2,300]}"#, parent: "4-377b56d8ea85ba8ac9ae86236858e2e0", attachments: [], rev: "5-ca2b8b2dcdeb6178810d66b5887cd813"),
        Vector(#"{"_deleted":true,"_rev":"5-ca2b8b2dcdeb6178810d66b5887cd813"}"#, parent: "5-ca2b8b2dcdeb6178810d66b5887cd813", attachments: [], rev: "6-bdcbc561075e279a4c114e03e7aaac0c"),
    ]

    @Test("Each recorded text gets CouchDB's ID, or is refused where CouchDB refused it", arguments: vectors)
    func recordedVector(_ vector: Vector) throws {
        guard let expected = vector.rev else {
            #expect(throws: DocumentFormatError.self) { _ = try RevisionBody(json: Array(vector.json.utf8)) }
            return
        }
        let body = try RevisionBody(json: Array(vector.json.utf8))
        let made = try RevisionHasher.revisionID(parent: vector.parent.flatMap(RevisionID.init), deleted: vector.deleted,
                                                 body: body, attachments: vector.infos)
        #expect(made.description == expected)
    }

    @Test("The store's own writes get the ID CouchDB gives the same body sent in canonical order")
    func storeWritesMatchCouchDB() throws {
        let store = try DocumentStore.inMemory()
        let created = try store.create(id: "s", body: [
            "name": "Soup", "n": 2, "tags": ["a", "b"], "nested": ["z": true, "a": nil], "bytes": [1, 2, 3],
            "big": 70000, "neg": -5,
        ])
        #expect(created.rev.description == "1-6a1cb4b7e1ea15c81f97a41a75c0090f")
        let updated = try store.update(id: "s", parent: created.rev, body: ["name": "Soup", "n": 3])
        #expect(updated.rev.description == "2-b482c613ee73f908d988783a040c8c27")
        let deleted = try store.delete(id: "s", parent: updated.rev)
        #expect(deleted.rev.description == "3-f33a3295ae2bea4f34c05c74dbacc8cd")
        let photo = try store.create(id: "a", body: ["kind": "photo"], attachments: [
            .put(name: "p.png", contentType: "image/png", data: Data("hello".utf8)),
            .put(name: "a.bin", contentType: "application/octet-stream", data: Data("yo".utf8)),
        ])
        #expect(photo.rev.description == "1-35934661d8a9a2a5951521bdab3032a7")

        // Recreating a deleted document with an attachment: CouchDB hashes each attachment
        // as `{undefined, undefined, undefined}` there (recorded: PUT {"a":1}, DELETE, PUT
        // {"n":2} with f.bin).
        let first = try store.create(id: "d", body: ["a": 1])
        let tombstone = try store.delete(id: "d", parent: first.rev)
        #expect(tombstone.rev.description == "2-b4e3122af5f2ab3ae9bbd74527a6aa04")
        let recreated = try store.create(id: "d", body: ["n": 2], attachments: [
            .put(name: "f.bin", contentType: "image/png", data: Data("hello".utf8)),
        ])
        #expect(recreated.rev.description == "3-081a3887d99be9018e8c8a975857e540")
    }

    @Test("Member order, duplicates and special members are read as jiffy reads them")
    func receivedOrder() throws {
        let sorted = try RevisionBody(json: Array(#"{"a":1,"b":2}"#.utf8))
        let reversed = try RevisionBody(json: Array(#"{"b":2,"a":1}"#.utf8))
        #expect(sorted != reversed)
        #expect(try RevisionBody(json: Array(#" { "_id" : "x", "b" : 2 , "a":1 } "#.utf8)) == reversed)
        #expect(try RevisionBody(json: Array(#"{"a":0,"b":2,"a":1}"#.utf8)) == reversed)
        #expect(try RevisionBody(canonical: ["b": 2, "a": 1]) == sorted)
        let listed = try RevisionBody(json: Array(#"{"_attachments":{"z":{"stub":true},"a":{"stub":true},"z":{"stub":true}}}"#.utf8))
        #expect(listed.attachmentOrder == ["a", "z"])
        for text in [#"[1]"#, #"{"a":1"#, #"{"a":1}x"#, #"{"a":"\ud800"}"#, #"{"a":1e999}"#, #"{"a":01}"#] {
            #expect(throws: DocumentFormatError.self, "\(text)") { _ = try RevisionBody(json: Array(text.utf8)) }
        }
    }
}
