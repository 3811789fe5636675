import ExtDisplayTestSupport
import Foundation
import Testing

/// `present --serve` behind a real TLS-terminating reverse proxy (issue 23 row i): nginx on loopback with a
/// self-signed certificate made by the openssl CLI for this run, forwarding WebSocket upgrades and the `Host`
/// header to `present --serve 127.0.0.1:P --serve-origin https://127.0.0.1:N`. Headless Chromium (which accepts
/// the certificate) opens the audience page and the remote over https, and their sockets over wss://: a key on
/// the console flips the page, the remote's Next button drives the talk. The configuration is the README's.
/// Part of the serialized Chromium suite: one headless Chromium at a time.
extension ChromiumDisplayTests {
    /// The proxy's configuration (the README's example, with the test's paths and ports): TLS on `listen`,
    /// everything forwarded to the presenter with the `Host` the browser sent and the WebSocket upgrade.
    static func nginxConfiguration(directory: URL, listen: Int, presenter: Int) -> String {
        let dir = directory.path
        return """
        daemon off;
        master_process off;
        worker_processes 1;
        pid \(dir)/nginx.pid;
        error_log \(dir)/error.log info;
        events { worker_connections 128; }
        http {
            access_log \(dir)/access.log;
            client_body_temp_path \(dir)/body;
            proxy_temp_path \(dir)/proxy;
            fastcgi_temp_path \(dir)/fastcgi;
            uwsgi_temp_path \(dir)/uwsgi;
            scgi_temp_path \(dir)/scgi;
            map $http_upgrade $connection_upgrade { default upgrade; '' close; }
            server {
                listen 127.0.0.1:\(listen) ssl;
                ssl_certificate \(dir)/cert.pem;
                ssl_certificate_key \(dir)/key.pem;
                client_header_timeout 10s;
                keepalive_timeout 15s;
                location / {
                    proxy_pass http://127.0.0.1:\(presenter);
                    proxy_http_version 1.1;
                    proxy_set_header Host $http_host;
                    proxy_set_header Upgrade $http_upgrade;
                    proxy_set_header Connection $connection_upgrade;
                    proxy_connect_timeout 5s;
                    proxy_read_timeout 60s;
                    proxy_send_timeout 60s;
                    proxy_buffering off;
                }
            }
        }
        """
    }

    /// A TCP port free on loopback now (bound, read back, closed).
    static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw SupportError("socket: errno \(errno)") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        guard bound else { throw SupportError("bind: errno \(errno)") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// `nginx`: `$NGINX`, else /usr/sbin/nginx or nginx on the PATH.
    static func nginx() throws -> String {
        if let path = ProcessInfo.processInfo.environment["NGINX"], !path.isEmpty { return path }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin"
        for directory in ["/usr/sbin"] + path.split(separator: ":").map(String.init) {
            if FileManager.default.isExecutableFile(atPath: directory + "/nginx") { return directory + "/nginx" }
        }
        throw SupportError("nginx is not installed: run scripts/install-deps.sh (Debian package nginx)")
    }

    /// Waits until the page has painted a frame other than `previous` (hang guard `timeout` seconds); returns it.
    static func painted(_ chromium: Chromium, _ page: Chromium.Page, after previous: UInt32?,
                        timeout: Double = 30) async throws -> UInt32 {
        try await waitFor("the page painting a new frame", timeout: timeout) {
            try await chromium.paints(page).last.map(\.frame).flatMap { $0 != previous ? $0 : nil }
        }
    }

    @Test("behind nginx with TLS: the https audience page flips on a key, the remote over wss:// drives the talk")
    func behindNginx() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("edk-nginx-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let nginx = try Self.nginx()
        try run(["/usr/bin/env", "openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
                 "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
                 "-keyout", directory.appendingPathComponent("key.pem").path,
                 "-out", directory.appendingPathComponent("cert.pem").path])
        let listen = try Self.freePort()
        let origin = "https://127.0.0.1:\(listen)"
        let presenter = try await ServedPresenterProcess.start(binary: try Repository.extdisplay(), deck: try writeDeck(),
                                                               extraArguments: ["--serve-origin", origin])
        defer { presenter.quit() }
        let presenterPort = Int(presenter.url.split(separator: ":").last!.prefix { $0.isNumber })!
        let configuration = directory.appendingPathComponent("nginx.conf")
        try Self.nginxConfiguration(directory: directory, listen: listen, presenter: presenterPort)
            .write(to: configuration, atomically: true, encoding: .utf8)
        let proxy = try ChildProcess(nginx, ["-p", directory.path, "-e", directory.appendingPathComponent("error.log").path,
                                             "-c", configuration.path])
        defer {
            proxy.signal(SIGTERM)
            _ = proxy.exitStatus(timeout: 10)
        }
        try await waitUntil("nginx listens on \(listen) (\(proxy.stderr))", timeout: 15) {
            (try? RawSocket(port: listen, timeout: 1)) != nil
        }

        let chromium = try await Chromium.launch(extraArguments: ["--ignore-certificate-errors"])
        do {
            let audience = try await chromium.open(origin + "/")
            let first = try await Self.painted(chromium, audience, after: nil)
            let scheme = try await chromium.evaluate(audience, "location.protocol") as? String
            #expect(scheme == "https:")

            var mark = presenter.console.all.count
            presenter.type("n")
            _ = try await presenter.waitForLine(from: mark, timeout: 20) { $0.hasPrefix("slide 2 of 3") }
            let second = try await Self.painted(chromium, audience, after: first)

            let token = try #require(URL(string: presenter.remoteURL)?.query)
            let remote = try await chromium.open(origin + "/remote?" + token, width: 800, height: 1000)
            try await waitUntil("the remote shows slide 2", timeout: 30) {
                let text = try? await chromium.evaluate(remote, "document.getElementById('where').textContent") as? String
                return text?.hasPrefix("Slide 2 of 3") == true
            }
            mark = presenter.console.all.count
            _ = try await chromium.evaluate(remote, "document.getElementById('next').click()")
            _ = try await presenter.waitForLine(from: mark, timeout: 20) { $0.hasPrefix("slide 3 of 3") }
            _ = try await Self.painted(chromium, audience, after: second)
        } catch {
            await chromium.quit()
            throw error
        }
        await chromium.quit()
        // Both sockets went through the proxy as WebSockets (101), and pages came over it (200).
        let log = (try? String(contentsOf: directory.appendingPathComponent("access.log"), encoding: .utf8)) ?? ""
        #expect(log.contains("\"GET /ws HTTP/1.1\" 101"), "nginx's log: \(log)")
        #expect(log.contains("\"GET /remote/ws?") && log.contains("HTTP/1.1\" 101"), "nginx's log: \(log)")
        #expect(log.contains("\"GET / HTTP/1.1\" 200"), "nginx's log: \(log)")
    }
}
