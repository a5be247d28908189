package io.tas.support;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * HTTP/1.1 over a raw keep-alive socket, for requests a regular client refuses to send: header injection, duplicate
 * headers, bytes outside ASCII, oversized targets. One instance per thread. The request bytes are sent exactly as given.
 */
public final class RawHttp implements AutoCloseable {
    /** One answer; status -1: the connection closed (or timed out) before a status line. */
    public record Answer(int status, String head, byte[] body) {
        public String text() { return new String(body, StandardCharsets.UTF_8); }
    }

    private final int port;
    private Socket socket;
    private InputStream in;
    private OutputStream out;

    public RawHttp(int port) { this.port = port; }

    /** Sends one request on the kept-alive connection and reads its answer; a closed connection is reopened first. */
    public Answer exchange(byte[] request) {
        try {
            if (socket == null) open();
            out.write(request);
            out.flush();
            Answer a = read();
            if (a.status() < 0 || a.head().toLowerCase(Locale.ROOT).contains("\r\nconnection: close")) close();
            return a;
        } catch (IOException e) {
            close();
            return new Answer(-1, e.toString(), new byte[0]);
        }
    }

    /**
     * Sends the bytes on a fresh connection, half-closes it, and reads every answer until the server closes: for
     * requests whose framing is in question (a Content-Length shorter than the body, injected blank lines).
     */
    public List<Answer> oneShot(byte[] request) {
        close();
        List<Answer> answers = new ArrayList<>();
        try {
            open();
            out.write(request);
            out.flush();
            socket.shutdownOutput();
            while (true) {
                Answer a = read();
                if (a.status() < 0) break;
                answers.add(a);
            }
        } catch (IOException e) {
            // the server may reset a connection it refused; the answers read so far stand
        } finally {
            close();
        }
        return answers;
    }

    private void open() throws IOException {
        socket = new Socket();
        socket.setTcpNoDelay(true);
        socket.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
        socket.setSoTimeout(10_000);
        in = new BufferedInputStream(socket.getInputStream(), 16_384);
        out = socket.getOutputStream();
    }

    private Answer read() throws IOException {
        String head;
        try {
            head = head();
        } catch (SocketTimeoutException e) {
            return new Answer(-1, "timeout", new byte[0]);
        }
        if (head == null) return new Answer(-1, "closed", new byte[0]);
        int status = Integer.parseInt(head.substring(9, 12));
        String lower = head.toLowerCase(Locale.ROOT);
        byte[] body;
        if (lower.contains("\r\ntransfer-encoding: chunked")) {
            body = chunked();
        } else {
            int at = lower.indexOf("\r\ncontent-length:");
            int length = 0;
            if (at >= 0) length = Integer.parseInt(lower.substring(at + 17, lower.indexOf("\r\n", at + 2)).trim());
            body = in.readNBytes(length);
        }
        return new Answer(status, head, body);
    }

    /** The status line and headers up to the blank line; null when the connection closed before any byte. */
    private String head() throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream(256);
        int last4 = 0;
        while (true) {
            int c = in.read();
            if (c < 0) {
                if (b.size() == 0) return null;
                throw new IOException("connection closed inside the response head: " + b);
            }
            b.write(c);
            last4 = (last4 << 8) | c;
            if (last4 == 0x0d0a0d0a) return b.toString(StandardCharsets.ISO_8859_1);
        }
    }

    private byte[] chunked() throws IOException {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        while (true) {
            String line = line();
            int size = Integer.parseInt(line.split(";", 2)[0].trim(), 16);
            if (size == 0) {
                while (!line().isEmpty()) { } // trailers
                return body.toByteArray();
            }
            body.write(in.readNBytes(size));
            line();
        }
    }

    private String line() throws IOException {
        StringBuilder sb = new StringBuilder();
        int c;
        while ((c = in.read()) >= 0 && c != '\n') if (c != '\r') sb.append((char) c);
        return sb.toString();
    }

    @Override
    public void close() {
        if (socket == null) return;
        try {
            socket.close();
        } catch (IOException ignored) {
            // closing anyway
        }
        socket = null;
    }
}
