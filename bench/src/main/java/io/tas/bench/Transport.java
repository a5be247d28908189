package io.tas.bench;

import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;

/** Netty transport choice: native epoll when available (default "auto"), else NIO. */
record Transport(String name,
                 IoHandlerFactory factory,
                 Class<? extends ServerChannel> serverChannel,
                 Class<? extends SocketChannel> clientChannel) {

    static Transport select(String wanted) {
        boolean epoll = switch (wanted) {
            case "epoll" -> {
                if (!Epoll.isAvailable()) {
                    throw new IllegalStateException("epoll requested but unavailable", Epoll.unavailabilityCause());
                }
                yield true;
            }
            case "nio" -> false;
            case "auto" -> Epoll.isAvailable();
            default -> throw new IllegalArgumentException("--transport must be auto|epoll|nio, got " + wanted);
        };
        if (epoll) {
            return new Transport("epoll", EpollIoHandler.newFactory(),
                    EpollServerSocketChannel.class, EpollSocketChannel.class);
        }
        return new Transport("nio", NioIoHandler.newFactory(),
                NioServerSocketChannel.class, NioSocketChannel.class);
    }

    MultiThreadIoEventLoopGroup group(int threads) {
        return new MultiThreadIoEventLoopGroup(threads, factory);
    }
}
