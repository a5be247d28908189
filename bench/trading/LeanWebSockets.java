import java.io.EOFException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.BiConsumer;

/**
 * The streams bench's WebSocket clients (RFC 6455, text frames only): many connections read by a few selector threads,
 * so the load generator spends about 10 microseconds of CPU a message where the JDK's client spent about 66 on the same two
 * cores as the server (benchmarks.md, issue 27). What a connection receives goes to its handler with the arrival time.
 */
final class LeanWebSockets implements AutoCloseable {
    private final Reader[] readers;
    private int connected;

    /** readers: the selector threads, each reading its share of the connections (taken in turn). */
    LeanWebSockets(int readers) throws IOException {
        this.readers = new Reader[readers];
        for (int i = 0; i < readers; i++) this.readers[i] = new Reader(i);
    }

    /** Text messages handed on so far, all readers together. */
    long messages() {
        long n = 0;
        for (Reader r : readers) n += r.messages;
        return n;
    }

    /** The readers' CPU time so far (the load generator's cost, reported). */
    long readerCpuNanos() {
        long n = 0;
        java.lang.management.ThreadMXBean mx = java.lang.management.ManagementFactory.getThreadMXBean();
        for (Reader r : readers) n += mx.getThreadCpuTime(r.thread.threadId()); // asked from here: no system call a read
        return n;
    }

    /** One client connection: frames out are masked (the protocol's rule for clients), text frames in are handed on. */
    static final class Conn {
        final SocketChannel channel;
        final BiConsumer<String, Long> handler;
        private ByteBuffer in = ByteBuffer.allocate(16 * 1024); // grown for a larger frame (frames())
        private final StringBuilder fragments = new StringBuilder();

        private Conn(SocketChannel channel, BiConsumer<String, Long> handler) {
            this.channel = channel;
            this.handler = handler;
        }

        /** Sends one text frame (from any thread; one writer at a time). */
        synchronized void sendText(String text) throws IOException {
            byte[] payload = text.getBytes(StandardCharsets.UTF_8);
            int n = payload.length;
            ByteBuffer f = ByteBuffer.allocate(14 + n);
            f.put((byte) 0x81);
            if (n < 126) f.put((byte) (0x80 | n));
            else if (n < 65536) f.put((byte) (0x80 | 126)).putShort((short) n);
            else f.put((byte) (0x80 | 127)).putLong(n);
            byte[] mask = new byte[4];
            ThreadLocalRandom.current().nextBytes(mask);
            f.put(mask);
            for (int i = 0; i < n; i++) f.put((byte) (payload[i] ^ mask[i & 3]));
            f.flip();
            long giveUp = System.nanoTime() + 5_000_000_000L; // bounded: a server that reads nothing for 5 s
            while (f.hasRemaining()) {
                if (channel.write(f) > 0) continue;
                if (System.nanoTime() > giveUp) throw new IOException("the server took nothing for 5 s");
                Thread.onSpinWait(); // a full socket buffer: small frames rarely see one
            }
        }

        void abort() {
            try {
                channel.close();
            } catch (IOException ignored) {
                // gone already
            }
        }
    }

    /** Opens a connection from localAddress (the per-IP limit), upgrades it on path, and reads it from here on. */
    Conn connect(String localAddress, int port, String path, BiConsumer<String, Long> handler) throws IOException {
        SocketChannel ch = SocketChannel.open();
        ch.bind(new InetSocketAddress(localAddress, 0));
        ch.connect(new InetSocketAddress("127.0.0.1", port));
        ch.socket().setTcpNoDelay(true);
        byte[] nonce = new byte[16];
        ThreadLocalRandom.current().nextBytes(nonce);
        String upgrade = "GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                + "Sec-WebSocket-Key: " + Base64.getEncoder().encodeToString(nonce) + "\r\nSec-WebSocket-Version: 13\r\n\r\n";
        ByteBuffer out = ByteBuffer.wrap(upgrade.getBytes(StandardCharsets.US_ASCII));
        while (out.hasRemaining()) ch.write(out);
        ch.configureBlocking(false);
        Conn c = new Conn(ch, handler);
        // The answer's head, read a byte at a time so nothing after it (a first frame) is taken from the frame reader;
        // bounded: 30 s.
        StringBuilder head = new StringBuilder();
        ByteBuffer one = ByteBuffer.allocate(1);
        long giveUp = System.nanoTime() + 30_000_000_000L;
        while (!head.toString().endsWith("\r\n\r\n")) {
            one.clear();
            int read = ch.read(one);
            if (read < 0) throw new EOFException("closed during the upgrade");
            if (read == 1) {
                head.append((char) one.get(0));
                continue;
            }
            if (System.nanoTime() > giveUp) throw new IOException("no upgrade answer within 30 s");
            java.util.concurrent.locks.LockSupport.parkNanos(200_000);
        }
        if (!head.toString().startsWith("HTTP/1.1 101")) throw new IOException("upgrade refused: " + head.toString().lines().findFirst().orElse(""));
        Reader r = readers[connected++ % readers.length];
        r.joining.add(c);
        r.selector.wakeup();
        return c;
    }

    /**
     * -DreadPauseMicros: a reader's pause after a select that found frames, so the next finds many and the server's
     * loopback writes wake a sleeping reader less often (as a NIC's interrupt coalescing would). Off by default: four
     * interleaved pairs did not settle it (D235). A frame's arrival is stamped when read, so the pause counts against it.
     */
    static final long READ_PAUSE_NANOS = Long.getLong("readPauseMicros", 0) * 1000;

    /** One selector thread and the connections it reads. */
    private static final class Reader {
        final Selector selector;
        final ConcurrentLinkedQueue<Conn> joining = new ConcurrentLinkedQueue<>();
        final Thread thread;
        volatile boolean open = true;
        volatile long messages;

        Reader(int i) throws IOException {
            selector = Selector.open();
            thread = Thread.ofPlatform().daemon().name("lean-ws-reader-" + i).start(this::read);
        }

        private void read() {
            try {
                while (open) {
                    int ready = selector.select(100);
                    for (Conn c; (c = joining.poll()) != null; ) c.channel.register(selector, SelectionKey.OP_READ, c);
                    for (SelectionKey k : selector.selectedKeys()) {
                        Conn c = (Conn) k.attachment();
                        try {
                            if (c.channel.read(c.in) < 0) {
                                k.cancel();
                                continue;
                            }
                            messages += frames(c, System.currentTimeMillis());
                        } catch (IOException gone) {
                            k.cancel();
                        }
                    }
                    selector.selectedKeys().clear();
                    if (ready > 0 && READ_PAUSE_NANOS > 0) java.util.concurrent.locks.LockSupport.parkNanos(READ_PAUSE_NANOS);
                }
            } catch (IOException e) {
                if (open) throw new IllegalStateException(e);
            }
        }
    }

    /** Hands on every whole frame in the connection's buffer (a partial one waits for the next read); how many were text. */
    private static int frames(Conn c, long now) throws IOException {
        int texts = 0;
        ByteBuffer b = c.in;
        b.flip();
        while (b.remaining() >= 2) {
            int start = b.position();
            int b0 = b.get() & 0xff, b1 = b.get() & 0xff;
            long len = b1 & 0x7f;
            if (len == 126) {
                if (b.remaining() < 2) { b.position(start); break; }
                len = b.getShort() & 0xffff;
            } else if (len == 127) {
                if (b.remaining() < 8) { b.position(start); break; }
                len = b.getLong();
            }
            if (b.remaining() < len) {
                b.position(start);
                if (len + 14 > b.capacity()) { // a frame larger than the buffer: grow it
                    ByteBuffer bigger = ByteBuffer.allocate((int) len + 14);
                    bigger.put(b);
                    c.in = bigger;
                    return texts;
                }
                break;
            }
            String payload = new String(b.array(), b.arrayOffset() + b.position(), (int) len, StandardCharsets.UTF_8);
            b.position(b.position() + (int) len);
            int opcode = b0 & 0x0f;
            boolean fin = (b0 & 0x80) != 0;
            if (opcode == 1 || opcode == 0) {
                if (fin && c.fragments.isEmpty()) { // a whole message in one frame (every push): no copy
                    c.handler.accept(payload, now);
                    texts++;
                } else {
                    c.fragments.append(payload);
                    if (fin) {
                        String text = c.fragments.toString();
                        c.fragments.setLength(0);
                        c.handler.accept(text, now);
                        texts++;
                    }
                }
            }
            // ping, pong and close frames carry nothing the bench times; the server's text pong arrives as text
        }
        b.compact();
        return texts;
    }

    @Override
    public void close() throws IOException {
        for (Reader r : readers) {
            r.open = false;
            r.thread.interrupt();
            for (SelectionKey k : r.selector.keys()) ((Conn) k.attachment()).abort();
            r.selector.close();
        }
    }
}
