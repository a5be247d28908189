package io.tas.support;

import com.fasterxml.jackson.databind.JsonNode;
import io.tas.http.Json;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * One HTTP/1.1 request sent from a chosen loopback address (any of 127.0.0.0/8), so tests can be callers
 * with different IPs on one machine: IP allow-lists and per-IP rate limits see a different client.
 */
public final class LoopbackClient {
    public record Response(int status, JsonNode body, String raw) {
        public String code() { return body.path("code").asText(); }
    }

    /** headers: name, value pairs. */
    public static Response get(String fromIp, int port, String target, String... headers) {
        return send(fromIp, port, "GET", target, "", headers);
    }

    /** Any method; a non-empty body goes with its Content-Length (the headers name its Content-Type). */
    public static Response send(String fromIp, int port, String method, String target, String body, String... headers) {
        try (Socket s = new Socket()) {
            s.bind(new InetSocketAddress(InetAddress.getByName(fromIp), 0));
            s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 5_000);
            s.setSoTimeout(10_000);
            byte[] content = body.getBytes(StandardCharsets.UTF_8);
            StringBuilder req = new StringBuilder(method + " " + target + " HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\nConnection: close\r\n");
            for (int i = 0; i < headers.length; i += 2) req.append(headers[i]).append(": ").append(headers[i + 1]).append("\r\n");
            if (content.length > 0) req.append("Content-Length: ").append(content.length).append("\r\n");
            OutputStream out = s.getOutputStream();
            out.write(req.append("\r\n").toString().getBytes(StandardCharsets.UTF_8));
            out.write(content);
            out.flush();
            InputStream in = s.getInputStream();
            String head = head(in);
            int status = Integer.parseInt(head.substring("HTTP/1.1 ".length(), "HTTP/1.1 ".length() + 3));
            int length = 0;
            for (String line : head.split("\r\n")) {
                if (line.toLowerCase(Locale.ROOT).startsWith("content-length:")) length = Integer.parseInt(line.substring(15).trim());
            }
            String raw = new String(in.readNBytes(length), StandardCharsets.UTF_8);
            return new Response(status, Json.MAPPER.readTree(raw), raw);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The status line and headers, up to the blank line. */
    private static String head(InputStream in) throws IOException {
        StringBuilder sb = new StringBuilder();
        while (!sb.toString().endsWith("\r\n\r\n")) {
            int c = in.read();
            if (c < 0) throw new IOException("connection closed before the response headers ended: " + sb);
            sb.append((char) c);
        }
        return sb.toString();
    }

    private LoopbackClient() {}
}
