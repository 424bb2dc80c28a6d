import CCurl
import Glibc

/// Sends messages to the relay of `MailSettings` through libcurl's SMTP (RFC 5321):
/// `EHLO`, `STARTTLS` when an `smtp://` relay offers it (`CURLUSESSL_TRY`; an `smtps://`
/// relay speaks TLS from the first byte), `AUTH` with the URL's credentials, `MAIL
/// FROM`, `RCPT TO`, `DATA`. The certificate of a TLS relay is verified (peer and host
/// name) against the system's authorities, or `certificateAuthorities`.
///
/// Owns one libcurl easy handle, cleaned up in `deinit`; the handle keeps the relay's
/// connection between messages when the relay allows. Not `Sendable`: a handle is used
/// by one thread at a time (libcurl's rule), so one sender's thread owns the client.
final class SMTPClient {
    private let handle: UnsafeMutableRawPointer
    private let settings: MailSettings
    /// `CURLOPT_ERRORBUFFER`: libcurl writes its explanation of a failure here.
    private let errorBuffer: UnsafeMutablePointer<CChar>

    /// libcurl's global state, set up once per process before any handle (curl_global_init(3)).
    private static let globalInit: CURLcode = curl_global_init(Int(CURL_GLOBAL_DEFAULT))

    init(settings: MailSettings) throws(SMTPFailure) {
        guard Self.globalInit == CURLE_OK, let handle = curl_easy_init() else {
            throw SMTPFailure(code: Int(Self.globalInit.rawValue), reply: 0, detail: "libcurl could not start")
        }
        self.handle = handle
        self.settings = settings
        errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE))
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
        // What every message shares: set once, kept by the handle (curl_easy_setopt(3)).
        let implicitTLS = settings.smtpURL.hasPrefix("smtps://")
        var options: [CURLcode] = [
            curl_setopt_pointer(handle, CURLOPT_ERRORBUFFER, errorBuffer),
            curl_setopt_string(handle, CURLOPT_URL, settings.smtpURL),
            curl_setopt_string(handle, CURLOPT_PROTOCOLS_STR, "smtp,smtps"),
            curl_setopt_long(handle, CURLOPT_USE_SSL, Int(implicitTLS ? CURLUSESSL_ALL.rawValue : CURLUSESSL_TRY.rawValue)),
            curl_setopt_string(handle, CURLOPT_MAIL_FROM, settings.from),
            curl_setopt_long(handle, CURLOPT_UPLOAD, 1),
            curl_setopt_data_callback(handle, CURLOPT_READFUNCTION, readBody),
            // The sender's thread is not the main one: no signals for timeouts (CURLOPT_NOSIGNAL(3)).
            curl_setopt_long(handle, CURLOPT_NOSIGNAL, 1),
            curl_setopt_long(handle, CURLOPT_CONNECTTIMEOUT_MS, settings.connectTimeoutMilliseconds),
            curl_setopt_long(handle, CURLOPT_TIMEOUT_MS, settings.transferTimeoutMilliseconds),
        ]
        if let authorities = settings.certificateAuthorities {
            options.append(curl_setopt_string(handle, CURLOPT_CAINFO, authorities))
        }
        if let refused = options.first(where: { $0 != CURLE_OK }) {
            throw failure(refused)
        }
    }

    deinit {
        curl_easy_cleanup(handle)
        errorBuffer.deallocate()
    }

    /// Hands `message` to the relay; returns once the relay took it (`250` after the data).
    func send(_ message: MailMessage) throws(SMTPFailure) {
        let body = MessageBody(message.rendered)
        guard let recipients = curl_slist_append(nil, message.recipient) else {
            throw SMTPFailure(code: Int(CURLE_OUT_OF_MEMORY.rawValue), reply: 0, detail: "no memory for the recipient")
        }
        defer {
            // The handle keeps no pointer to what this call frees.
            _ = curl_setopt_slist(handle, CURLOPT_MAIL_RCPT, nil)
            _ = curl_setopt_pointer(handle, CURLOPT_READDATA, nil)
            curl_slist_free_all(recipients)
        }
        errorBuffer[0] = 0
        let options = [
            curl_setopt_slist(handle, CURLOPT_MAIL_RCPT, recipients),
            curl_setopt_pointer(handle, CURLOPT_READDATA, Unmanaged.passUnretained(body).toOpaque()),
        ]
        if let refused = options.first(where: { $0 != CURLE_OK }) {
            throw failure(refused)
        }
        let result = withExtendedLifetime(body) { curl_easy_perform(handle) }
        guard result == CURLE_OK else { throw failure(result) }
    }

    private func failure(_ code: CURLcode) -> SMTPFailure {
        var reply = 0
        _ = curl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &reply)
        let explained = String(cString: errorBuffer)
        return SMTPFailure(
            code: Int(code.rawValue), reply: reply,
            detail: explained.isEmpty ? String(cString: curl_easy_strerror(code)) : explained)
    }
}

/// The bytes of one message and how far libcurl has read them.
private final class MessageBody {
    let bytes: [UInt8]
    var offset = 0

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }
}

/// CURLOPT_READFUNCTION: copies the next bytes of the `MessageBody` at `context`; 0 ends the data.
private let readBody: curl_data_callback = { buffer, size, count, context in
    guard let buffer, let context else { return 0 }
    let body = Unmanaged<MessageBody>.fromOpaque(context).takeUnretainedValue()
    let length = min(size * count, body.bytes.count - body.offset)
    body.bytes.withUnsafeBufferPointer { source in
        UnsafeMutableRawPointer(buffer).copyMemory(from: source.baseAddress! + body.offset, byteCount: length)
    }
    body.offset += length
    return length
}
