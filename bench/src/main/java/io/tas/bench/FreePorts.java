package io.tas.bench;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;

/** Prints N currently free loopback TCP ports, space separated. */
final class FreePorts {
    static int run(Args a) throws Exception {
        int n = a.integer("count", 1);
        a.done();
        List<ServerSocket> sockets = new ArrayList<>();
        StringBuilder sb = new StringBuilder();
        try {
            for (int i = 0; i < n; i++) {
                ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
                sockets.add(s);
                sb.append(i == 0 ? "" : " ").append(s.getLocalPort());
            }
        } finally {
            for (ServerSocket s : sockets) {
                s.close();
            }
        }
        System.out.println(sb);
        return 0;
    }
}
