package io.tas.support;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A TCP relay of the test's own between a node and a server on loopback (PostgreSQL). It can stop forwarding without
 * closing any socket, as a network partition leaves a connection half-open: no FIN, no RST, every byte sent in either
 * direction lost. Each direction is a thread that reads and, once its link is cut, drops what it reads.
 */
public final class TcpRelay implements AutoCloseable {
    private final ServerSocket listener;
    private final InetSocketAddress target;
    private final Set<Link> links = ConcurrentHashMap.newKeySet();
    /** Connections accepted from now on forward nothing either (the server is unreachable). */
    private volatile boolean partitioned;
    private volatile boolean closed;

    private final class Link {
        final Socket client;
        volatile Socket server;
        volatile boolean cut;

        Link(Socket client) { this.client = client; }

        void pump(InputStream in, OutputStream out) {
            byte[] buf = new byte[16_384];
            try {
                for (int n; (n = in.read(buf)) >= 0; ) {
                    if (cut) continue; // lost on the way
                    out.write(buf, 0, n);
                    out.flush();
                }
            } catch (IOException e) {
                // one side closed: below, so is the other
            }
            if (!cut) close(); // a cut link stays open: that is the point
        }

        void close() {
            links.remove(this);
            closeQuietly(client);
            closeQuietly(server);
        }
    }

    private TcpRelay(InetSocketAddress target) throws IOException {
        this.target = target;
        this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread.ofPlatform().daemon().name("tcp-relay-accept").start(this::accept);
    }

    /** A relay to host:port (on this machine). */
    public static TcpRelay to(String host, int port) throws IOException {
        return new TcpRelay(new InetSocketAddress(host, port));
    }

    /** A relay to the server a jdbc:postgresql://host:port/db URL names. */
    public static TcpRelay toJdbc(String jdbcUrl) throws IOException {
        URI u = URI.create(jdbcUrl.substring("jdbc:".length()));
        return to(u.getHost(), u.getPort() < 0 ? 5432 : u.getPort());
    }

    /** The same JDBC URL, through this relay. */
    public String jdbcUrl(String jdbcUrl) {
        URI u = URI.create(jdbcUrl.substring("jdbc:".length()));
        String hostPort = u.getHost() + (u.getPort() < 0 ? "" : ":" + u.getPort());
        return jdbcUrl.replaceFirst("//" + java.util.regex.Pattern.quote(hostPort) + "/", "//127.0.0.1:" + listener.getLocalPort() + "/");
    }

    /** Cuts every connection open now, both directions, without closing one; later connections are forwarded. Returns how many. */
    public int cutOpenConnections() {
        int n = 0;
        for (Link l : links) {
            l.cut = true;
            n++;
        }
        return n;
    }

    /** Cuts every connection, open or to come: the server is unreachable, and nobody is told. */
    public void partition() {
        partitioned = true;
        cutOpenConnections();
    }

    /** The partition ends: cut connections are closed (both ends see it at once), and new ones are forwarded again. */
    public void heal() {
        partitioned = false;
        for (Link l : links) if (l.cut) l.close();
    }

    /** Connections open now, forwarded or cut. */
    public int openConnections() { return links.size(); }

    private void accept() {
        while (!closed) {
            Socket client;
            try {
                client = listener.accept();
            } catch (IOException e) {
                return; // closed
            }
            Link link = new Link(client);
            links.add(link);
            if (partitioned) {
                link.cut = true;
                Thread.ofVirtual().start(() -> {
                    try {
                        link.pump(client.getInputStream(), OutputStream.nullOutputStream());
                    } catch (IOException e) {
                        link.close();
                    }
                });
                continue;
            }
            try {
                Socket server = new Socket(target.getAddress(), target.getPort());
                link.server = server;
                Thread.ofVirtual().start(() -> pumpOrClose(link, client, server));
                Thread.ofVirtual().start(() -> pumpOrClose(link, server, client));
            } catch (IOException e) {
                link.close();
            }
        }
    }

    private static void pumpOrClose(Link link, Socket from, Socket to) {
        try {
            link.pump(from.getInputStream(), to.getOutputStream());
        } catch (IOException e) {
            link.close();
        }
    }

    private static void closeQuietly(Socket s) {
        if (s == null) return;
        try {
            s.close();
        } catch (IOException ignored) {
            // closing anyway
        }
    }

    /** Closes the listener and every connection (cut ones too): their ends see the close at once. */
    @Override
    public void close() {
        closed = true;
        try {
            listener.close();
        } catch (IOException ignored) {
            // closing anyway
        }
        for (Link l : links) l.close();
    }
}
