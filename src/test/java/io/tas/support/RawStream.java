package io.tas.support;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * A WebSocket client on a bare socket (RFC 6455), for the abuse tests of the streams (issue 27): it sends any frame
 * (text, binary, fragments, oversized) as fast as the socket takes it, reads only when asked, and can keep its receive
 * buffer small, so that a client which stops reading is a real one.
 */
public final class RawStream implements AutoCloseable {
    private final Socket socket;
    private final OutputStream out;
    private final DataInputStream in;

    /** Connects from the given local address (127.0.0.x: each is its own IP to the per-IP limit); receiveBuffer 0 keeps the default. */
    public RawStream(int port, String path, String fromIp, int receiveBuffer) throws IOException {
        socket = new Socket();
        if (receiveBuffer > 0) socket.setReceiveBufferSize(receiveBuffer);
        socket.bind(new InetSocketAddress(fromIp, 0));
        socket.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
        socket.setSoTimeout(10_000);
        out = socket.getOutputStream();
        in = new DataInputStream(new java.io.BufferedInputStream(socket.getInputStream(), 65_536));
        out.write(("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
        out.flush();
        String head = readHead();
        if (!head.startsWith("HTTP/1.1 101")) throw new IOException("no upgrade: " + head);
    }

    private String readHead() throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        int matched = 0;
        while (matched < 4) {
            int c = in.read();
            if (c < 0) throw new IOException("closed during the handshake");
            b.write(c);
            matched = (c == (matched % 2 == 0 ? '\r' : '\n')) ? matched + 1 : (c == '\r' ? 1 : 0);
        }
        return b.toString(StandardCharsets.US_ASCII);
    }

    public void text(String s) throws IOException { frame(0x1, true, s.getBytes(StandardCharsets.UTF_8)); }

    /** One frame: opcode (1 text, 2 binary, 0 continuation, 8 close, 9 ping), fin, payload; masked, as a client must. */
    public void frame(int opcode, boolean fin, byte[] payload) throws IOException {
        ByteArrayOutputStream f = new ByteArrayOutputStream(payload.length + 14);
        f.write((fin ? 0x80 : 0) | opcode);
        int n = payload.length;
        if (n < 126) {
            f.write(0x80 | n);
        } else if (n < 65_536) {
            f.write(0x80 | 126);
            f.write(n >>> 8);
            f.write(n & 0xff);
        } else {
            f.write(0x80 | 127);
            for (int i = 7; i >= 0; i--) f.write((int) ((long) n >>> (8 * i)) & 0xff);
        }
        byte[] mask = {0x12, 0x34, 0x56, 0x78};
        f.write(mask);
        for (int i = 0; i < n; i++) f.write(payload[i] ^ mask[i & 3]);
        out.write(f.toByteArray());
    }

    public void flush() throws IOException { out.flush(); }

    /** A frame the server sent: opcode and payload. */
    public record Frame(int opcode, byte[] payload) {
        public String text() { return new String(payload, StandardCharsets.UTF_8); }
    }

    /** The next frame, or null when the server closed the socket. */
    public Frame read() throws IOException {
        int b0 = in.read();
        if (b0 < 0) return null;
        int b1 = in.readUnsignedByte();
        long n = b1 & 0x7f;
        if (n == 126) n = in.readUnsignedShort();
        else if (n == 127) n = in.readLong();
        byte[] payload = new byte[(int) n];
        in.readFully(payload);
        return new Frame(b0 & 0x0f, payload);
    }

    public InputStream input() { return in; }

    public boolean isClosed() { return socket.isClosed(); }

    @Override
    public void close() throws IOException { socket.close(); }
}
