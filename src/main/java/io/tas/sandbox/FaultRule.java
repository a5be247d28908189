package io.tas.sandbox;

import io.tas.error.ApiException;
import io.tas.error.ErrorCode;

import java.math.BigDecimal;
import java.util.Arrays;
import java.util.Locale;

/**
 * One fault rule (issue 28 item 2, D190), immutable: which traffic it matches, what it does, and when it stops. The
 * mutable part (draws, firings) lives in {@link Faults}.
 *
 * @param target   rest (a REST row), ws-op (a frame a WebSocket client sends: login, subscribe, ...), ws-push (a push to a
 *                 subscriber)
 * @param method   REST: GET or POST, null for both
 * @param path     REST: the path, '*' matching any run of characters ("/api/v3/trade/*"), null for every row
 * @param op       ws-op: login, subscribe or unsubscribe, null for every op
 * @param topic    ws-push: the channel or topic (account, order, books5, ...), null for every push
 * @param uid      only this account's traffic, null for everyone's
 * @param apiKey   only this key's traffic, null for every key
 * @param action   what a match does
 * @param when     before (the request is refused before it runs: nothing changes) or after (it runs and commits, then
 *                 its answer is lost: what a client's retry logic must survive)
 */
public record FaultRule(long id, Target target, String method, String path, String op, String topic, Long uid, String apiKey,
                        BigDecimal probability, long seed, Integer count, Long expiresAt, Action action, String code,
                        Integer status, Long delayMs, When when) {

    public enum Target {
        REST("rest"), WS_OP("ws-op"), WS_PUSH("ws-push");
        final String wire;
        Target(String wire) { this.wire = wire; }
        public String wire() { return wire; }
    }

    /** error: the envelope with a real code; http: a bare 5xx; latency: a delay, then the real answer; drop: the
     *  connection closed with no answer; drop-push and delay-push: a WebSocket push lost or held back. */
    public enum Action {
        ERROR("error"), HTTP("http"), LATENCY("latency"), DROP("drop"), DROP_PUSH("drop-push"), DELAY_PUSH("delay-push");
        final String wire;
        Action(String wire) { this.wire = wire; }
        public String wire() { return wire; }
    }

    public enum When {
        BEFORE("before"), AFTER("after");
        final String wire;
        When(String wire) { this.wire = wire; }
        public String wire() { return wire; }
    }

    static <E extends Enum<E>> E parse(Class<E> type, String wire, E otherwise, String field) {
        if (wire == null) return otherwise;
        for (E e : type.getEnumConstants()) {
            if (e.toString().equals(wire.toUpperCase(Locale.ROOT).replace('-', '_'))) return e;
        }
        throw new ApiException(ErrorCode.PARAM_ERROR, field);
    }

    /** The enum entry of a real code (the first of its templates), for an error fault. */
    public ErrorCode errorCode() {
        return Arrays.stream(ErrorCode.values()).filter(e -> e.code().equals(code)).findFirst().orElseThrow();
    }
}
