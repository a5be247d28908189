package io.tas.sandbox;

import io.tas.error.ApiException;
import io.tas.error.ErrorCode;
import io.tas.sandbox.FaultRule.Action;
import io.tas.sandbox.FaultRule.Target;
import io.tas.sandbox.FaultRule.When;

import java.math.BigDecimal;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Pattern;

/**
 * The node's fault rules (issue 28 item 2, D190), like LocalStack's Chaos API: chosen traffic fails in a chosen way,
 * with a probability drawn from the rule's own seeded generator (the same requests in the same order fire the same
 * faults), for a number of times or until a sandbox time. The first live rule that matches and draws decides. A reset
 * clears them. With no rule the request path pays one volatile read.
 */
public final class Faults {
    static final int MAX_RULES = 100;
    static final long MAX_DELAY_MS = 60_000;
    private static final Set<Action> REST_ACTIONS = Set.of(Action.ERROR, Action.HTTP, Action.LATENCY, Action.DROP);
    private static final Set<Action> OP_ACTIONS = Set.of(Action.ERROR, Action.LATENCY, Action.DROP);
    private static final Set<Action> PUSH_ACTIONS = Set.of(Action.DROP_PUSH, Action.DELAY_PUSH, Action.DROP);
    private static final BigDecimal MILLION = BigDecimal.valueOf(1_000_000);

    /** A rule as the admin API takes it; every field but action is optional. */
    public record NewRule(String target, String method, String path, String op, String topic, String uid, String apiKey,
                          String probability, Long seed, Integer count, Long expiresInMs, String action, String code,
                          Integer status, Long delayMs, String when) {}

    /** A rule and its draws: its generator, its firings. */
    private static final class Armed {
        final FaultRule rule;
        final Pattern path;
        final SplittableRandom random;
        final long threshold; // probability in millionths
        int fired;
        Armed(FaultRule rule) {
            this.rule = rule;
            this.path = rule.path() == null ? null : Glob.compile(rule.path());
            this.random = new SplittableRandom(rule.seed());
            this.threshold = rule.probability().multiply(MILLION).longValue();
        }
    }

    private final Clock clock;
    private final AtomicLong ids = new AtomicLong();
    private final CopyOnWriteArrayList<Armed> rules = new CopyOnWriteArrayList<>();

    public Faults(Clock clock) { this.clock = clock; }

    public synchronized FaultRule add(NewRule in) {
        if (in == null || in.action() == null) throw new ApiException(ErrorCode.PARAM_EMPTY, "action");
        Target target = FaultRule.parse(Target.class, in.target(), Target.REST, "target");
        Action action = FaultRule.parse(Action.class, in.action(), null, "action");
        When when = FaultRule.parse(When.class, in.when(), When.BEFORE, "when");
        if (!(target == Target.REST ? REST_ACTIONS : target == Target.WS_OP ? OP_ACTIONS : PUSH_ACTIONS).contains(action)) {
            throw new ApiException(ErrorCode.PARAM_ERROR, "action " + action.wire() + " does not apply to " + target.wire());
        }
        // after: the write commits and its answer is lost; a delay or a push has no answer to lose.
        if (when == When.AFTER && (target != Target.REST || action == Action.LATENCY)) throw new ApiException(ErrorCode.PARAM_ERROR, "when");
        String method = in.method() == null ? null : in.method().toUpperCase(java.util.Locale.ROOT);
        if (method != null && !method.equals("GET") && !method.equals("POST")) throw new ApiException(ErrorCode.PARAM_ERROR, "method");
        if (in.path() != null && (!in.path().startsWith("/") || in.path().length() > 256)) throw new ApiException(ErrorCode.PARAM_ERROR, "path");
        Long uid = null;
        if (in.uid() != null) {
            try { uid = Long.parseLong(in.uid()); } catch (NumberFormatException e) { throw new ApiException(ErrorCode.PARAM_ERROR, "uid"); }
        }
        BigDecimal p = BigDecimal.ONE;
        if (in.probability() != null) {
            try { p = new BigDecimal(in.probability()); } catch (NumberFormatException e) { throw new ApiException(ErrorCode.PARAM_ERROR, "probability"); }
            if (p.signum() <= 0 || p.compareTo(BigDecimal.ONE) > 0) throw new ApiException(ErrorCode.PARAM_ERROR, "probability");
        }
        if (in.count() != null && in.count() < 1) throw new ApiException(ErrorCode.PARAM_ERROR, "count");
        if (in.expiresInMs() != null && (in.expiresInMs() < 1 || in.expiresInMs() > 366L * 24 * 3600 * 1000)) throw new ApiException(ErrorCode.PARAM_ERROR, "expiresInMs");
        String code = null;
        Integer status = null;
        Long delay = null;
        switch (action) {
            case ERROR -> {
                code = in.code();
                if (code == null) throw new ApiException(ErrorCode.PARAM_EMPTY, "code");
                String c = code;
                // REST: a code of the service's (the envelope carries its message and HTTP status); a WebSocket error
                // event carries a number (30001, 30007, ...).
                boolean known = target == Target.REST ? !c.equals(ErrorCode.SUCCESS.code()) && Arrays.stream(ErrorCode.values()).anyMatch(e -> e.code().equals(c))
                        : c.matches("[1-9][0-9]{0,5}");
                if (!known) throw new ApiException(ErrorCode.PARAM_ERROR, "code");
            }
            case HTTP -> {
                status = in.status();
                if (status == null) throw new ApiException(ErrorCode.PARAM_EMPTY, "status");
                if (status < 500 || status > 599) throw new ApiException(ErrorCode.PARAM_ERROR, "status");
            }
            case LATENCY, DELAY_PUSH -> {
                delay = in.delayMs();
                if (delay == null) throw new ApiException(ErrorCode.PARAM_EMPTY, "delayMs");
                if (delay < 1 || delay > MAX_DELAY_MS) throw new ApiException(ErrorCode.PARAM_ERROR, "delayMs");
            }
            default -> { }
        }
        if (rules.size() >= MAX_RULES) throw new ApiException(ErrorCode.PARAM_ERROR, "at most " + MAX_RULES + " fault rules");
        FaultRule rule = new FaultRule(ids.incrementAndGet(), target, method, in.path(), in.op(), in.topic(), uid, in.apiKey(), p,
                in.seed() == null ? 1 : in.seed(), in.count(), in.expiresInMs() == null ? null : clock.millis() + in.expiresInMs(),
                action, code, status, delay, when);
        rules.add(new Armed(rule));
        return rule;
    }

    /** The rules with their firings, in the order they are tried. */
    public List<Map<String, Object>> list() {
        List<Map<String, Object>> out = new ArrayList<>();
        for (Armed a : rules) {
            synchronized (a) { out.add(view(a.rule, a.fired)); }
        }
        return out;
    }

    public static Map<String, Object> view(FaultRule r, int fired) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", Long.toString(r.id()));
        m.put("target", r.target().wire());
        if (r.method() != null) m.put("method", r.method());
        if (r.path() != null) m.put("path", r.path());
        if (r.op() != null) m.put("op", r.op());
        if (r.topic() != null) m.put("topic", r.topic());
        if (r.uid() != null) m.put("uid", Long.toString(r.uid()));
        if (r.apiKey() != null) m.put("apiKey", r.apiKey());
        m.put("probability", r.probability().toPlainString());
        m.put("seed", r.seed());
        if (r.count() != null) m.put("count", r.count());
        if (r.expiresAt() != null) m.put("expiresAt", Long.toString(r.expiresAt()));
        m.put("action", r.action().wire());
        if (r.code() != null) m.put("code", r.code());
        if (r.status() != null) m.put("status", r.status());
        if (r.delayMs() != null) m.put("delayMs", r.delayMs());
        m.put("when", r.when().wire());
        m.put("fired", fired);
        return m;
    }

    public boolean remove(long id) { return rules.removeIf(a -> a.rule.id() == id); }

    /** Removes every rule; ids start at 1 again, so a suite that clears (or resets) numbers its rules alike every run. */
    public synchronized void clear() {
        rules.clear();
        ids.set(0);
    }

    public boolean isEmpty() { return rules.isEmpty(); }

    /**
     * The rule that fires for this traffic, or null. name is the REST path, the WebSocket op or the pushed topic.
     * Each matching live rule draws from its generator in turn; a rule whose count is used up or whose time has
     * passed stays listed (with its firings) but fires no more.
     */
    public FaultRule fire(Target target, String method, String name, Long uid, String apiKey) {
        return fire(target, When.BEFORE, method, name, uid, apiKey);
    }

    /** As fire, among the rules of one moment: before the handler runs, or after it committed (REST only). */
    public FaultRule fire(Target target, When when, String method, String name, Long uid, String apiKey) {
        if (rules.isEmpty()) return null;
        long now = clock.millis();
        for (Armed a : rules) {
            FaultRule r = a.rule;
            if (r.target() != target || r.when() != when) continue;
            if (r.expiresAt() != null && now >= r.expiresAt()) continue;
            if (r.method() != null && !r.method().equals(method)) continue;
            if (target == Target.REST && a.path != null && !a.path.matcher(name).matches()) continue;
            if (target == Target.WS_OP && r.op() != null && !r.op().equals(name)) continue;
            if (target == Target.WS_PUSH && r.topic() != null && !r.topic().equals(name)) continue;
            if (r.uid() != null && !r.uid().equals(uid)) continue;
            if (r.apiKey() != null && !r.apiKey().equals(apiKey)) continue;
            synchronized (a) {
                if (r.count() != null && a.fired >= r.count()) continue;
                if (a.threshold < 1_000_000 && a.random.nextLong(1_000_000) >= a.threshold) continue;
                a.fired++;
            }
            return r;
        }
        return null;
    }
}
