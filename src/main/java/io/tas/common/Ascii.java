package io.tas.common;

/**
 * Case folding of request input, ASCII letters only. String.toUpperCase folds some other letters into ASCII ones (the
 * long s 'ſ' becomes 'S', the dotless 'ı' becomes 'I'), so "usdt-futureſ" would pass as USDT-FUTURES and "btcuſdt" as
 * BTCUSDT; the issue 29 contract check found the first. Here they stay as sent and are refused like any unknown value.
 */
public final class Ascii {
    private Ascii() {}

    public static String upper(String s) {
        if (s == null) return null;
        char[] c = s.toCharArray();
        for (int i = 0; i < c.length; i++) if (c[i] >= 'a' && c[i] <= 'z') c[i] -= 32;
        return new String(c);
    }

    public static String lower(String s) {
        if (s == null) return null;
        char[] c = s.toCharArray();
        for (int i = 0; i < c.length; i++) if (c[i] >= 'A' && c[i] <= 'Z') c[i] += 32;
        return new String(c);
    }
}
