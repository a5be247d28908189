package io.tas.http;

import java.util.EnumMap;
import java.util.Map;

/** Handlers bound to catalog rows. Each feature registers its own (Helidon SE style); rows left unbound answer 40099. */
public final class Routes {
    private final Map<Endpoint, ApiHandler> handlers = new EnumMap<>(Endpoint.class);

    public Routes bind(Endpoint endpoint, ApiHandler handler) {
        if (handlers.putIfAbsent(endpoint, handler) != null) throw new IllegalStateException("bound twice: " + endpoint);
        return this;
    }

    public ApiHandler handler(Endpoint endpoint) { return handlers.get(endpoint); }

    public boolean isImplemented(Endpoint endpoint) { return handlers.containsKey(endpoint); }

    /** A feature's route registration. */
    public interface Feature {
        void register(Routes routes);
    }
}
