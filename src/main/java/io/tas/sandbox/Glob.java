package io.tas.sandbox;

import java.util.Arrays;
import java.util.regex.Pattern;

/** A path pattern where '*' matches any run of characters ("/api/v3/trade/*"); everything else is literal. */
final class Glob {
    private Glob() {}

    static Pattern compile(String glob) {
        return Pattern.compile(Arrays.stream(glob.split("\\*", -1)).map(Pattern::quote).reduce((a, b) -> a + ".*" + b).orElse(""));
    }
}
