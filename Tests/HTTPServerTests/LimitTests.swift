import Testing
import TestSupport

@testable import HTTPServer

@Suite struct LimitTests {
    static let rows: [RefusedInput] = [
        RefusedInput(name: "head too large", bytes: "GET /hello HTTP/1.1\r\nHost: t\r\nX-Big: " + String(repeating: "b", count: 17 * 1024) + "\r\n\r\n", status: 431),
        RefusedInput(name: "URI too long", bytes: "GET /" + String(repeating: "a", count: 9 * 1024) + " HTTP/1.1\r\nHost: t\r\n\r\n", status: 414),
        RefusedInput(name: "body too large", bytes: "POST /echo HTTP/1.1\r\nHost: t\r\nContent-Length: 70000\r\n\r\n" + String(repeating: "x", count: 70000), status: 413),
        RefusedInput(name: "chunked body too large", bytes: "POST /echo HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n" + String(repeating: "8000\r\n" + String(repeating: "y", count: 0x8000) + "\r\n", count: 3) + "0\r\n\r\n", status: 413),
        RefusedInput(name: "malformed request line", bytes: "GARBAGE\r\n\r\n", status: 400),
        RefusedInput(name: "smuggling: both framings", bytes: "POST /echo HTTP/1.1\r\nHost: t\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", status: 400),
        RefusedInput(name: "bad chunk size", bytes: "POST /echo HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", status: 400),
        RefusedInput(name: "unknown transfer coding", bytes: "POST /echo HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: br\r\n\r\n", status: 501),
        RefusedInput(name: "unsupported version", bytes: "GET /hello HTTP/2.0\r\nHost: t\r\n\r\n", status: 505),
    ]

    @Test(arguments: rows)
    func refusedRequestsGetProblemAndClose(_ row: RefusedInput) throws {
        try TestServer.with { server in
            let client = try server.client()
            try client.send(row.bytes)
            let response = try client.readResponse()
            #expect(response.status == row.status)
            #expect(response.header("Content-Type") == "application/problem+json")
            #expect(response.header("Connection") == "close")
            #expect(response.bodyText.contains("\"status\":\(row.status)"))
            #expect(try client.waitForClose())
        }
    }

    // The timeouts themselves are tested with a fake clock (ConnectionTimeoutTests);
    // these show the event loop's sweep drives them on real sockets.

    @Test func slowHeadGets408WhileOthersAreServed() throws {
        try TestServer.with({ $0.headReadTimeout = .milliseconds(300) }) { server in
            let slow = try server.client()
            try slow.send("GET /hello HTTP/1.1\r\nHost: t\r\n")
            let other = try server.client()
            try other.send("GET /hello HTTP/1.1\r\nHost: t\r\n\r\n")
            #expect(try other.readResponse().status == 200)
            let response = try slow.readResponse()
            #expect(response.status == 408)
            #expect(response.header("Connection") == "close")
            #expect(try slow.waitForClose())
        }
    }

    @Test func aConnectionThatNeverSendsAByteIsClosed() throws {
        try TestServer.with({ $0.headReadTimeout = .milliseconds(300) }) { server in
            let silent = try server.client()
            #expect(try silent.waitForClose())
            #expect(try silent.readResponse().status == 408)
        }
    }

    @Test func idleConnectionIsClosed() throws {
        try TestServer.with({ $0.idleTimeout = .milliseconds(300) }) { server in
            let client = try server.client()
            try client.send("GET /hello HTTP/1.1\r\nHost: t\r\n\r\n")
            #expect(try client.readResponse().status == 200)
            #expect(try client.waitForClose())
            #expect(client.unreadBytes.isEmpty)
        }
    }
}
