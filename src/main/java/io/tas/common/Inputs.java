package io.tas.common;

import io.tas.error.ApiException;
import io.tas.error.ErrorCode;

import java.util.Set;
import java.util.regex.Pattern;

/**
 * The one set of input checks for coins, symbols and texts (issue 24), used by routes, record ingestion and seeds: the
 * same value gets the same answer whichever way it comes in. A missing value is 40019, a malformed one 40020, a text
 * longer than its column 40808 (D34).
 */
public final class Inputs {
    /** A ledger coin: upper-case letters and digits (balance.coin is varchar(16)): anything else can never hold a balance. */
    private static final Pattern COIN = Pattern.compile("[A-Z0-9]{1,16}");
    /** A trading pair or contract id as the platform writes them (BTCUSDT, BTCUSD_240628, ...). */
    private static final Pattern SYMBOL = Pattern.compile("[A-Za-z0-9_.-]{1,32}");

    private Inputs() {}

    public static boolean isCoin(String s) { return s != null && COIN.matcher(s).matches(); }

    /** A stored coin, exactly as given (seeds, feeds, admin writes): "usdt" is refused there, as data must be exact. */
    public static String coin(String name, String v) {
        if (v == null || v.isBlank()) throw new ApiException(ErrorCode.PARAM_EMPTY, name);
        if (!isCoin(v)) throw new ApiException(ErrorCode.PARAM_ERROR, name);
        return v;
    }

    /** A coin in a client's request: case-insensitive, as the platform's rows and examples ("usdt") are. */
    public static String coinParam(String name, String v) {
        return coin(name, v == null ? null : io.tas.common.Ascii.upper(v));
    }

    public static String symbol(String name, String v) {
        if (v == null || v.isBlank()) throw new ApiException(ErrorCode.PARAM_EMPTY, name);
        if (!SYMBOL.matcher(v).matches()) throw new ApiException(ErrorCode.PARAM_ERROR, name);
        return v;
    }

    /** A symbol in a client's request: upper-cased first ("btcusdt" is BTCUSDT). */
    public static String symbolParam(String name, String v) {
        return symbol(name, v == null ? null : io.tas.common.Ascii.upper(v));
    }

    /** An optional text of at most max characters; absent is "". */
    public static String text(String name, String v, int max) {
        if (v == null) return "";
        if (v.length() > max) throw new ApiException(ErrorCode.PARAM_VERIFICATION_EXCEPTION, name + " is longer than " + max + " characters");
        return v;
    }

    /** A value parsed from text (an enum's wire name, say): any failure but an ApiException is 40020 naming it. */
    public static <T> T parsed(java.util.function.Supplier<T> parse, String name) {
        try {
            return parse.get();
        } catch (ApiException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new ApiException(ErrorCode.PARAM_ERROR, name);
        }
    }

    /** A required value out of a fixed set. */
    public static String oneOf(String name, String v, Set<String> allowed) {
        if (v == null || v.isEmpty()) throw new ApiException(ErrorCode.PARAM_EMPTY, name);
        if (!allowed.contains(v)) throw new ApiException(ErrorCode.PARAM_ERROR, name);
        return v;
    }
}
