package io.tas.admin.console;

import io.tas.error.ApiException;
import io.tas.error.ErrorCode;

import java.math.BigDecimal;

/** The console's reading of form fields and path parts: a bad value is an ApiException (a 400 page), never a 500. */
final class Forms {
    private Forms() {}

    static long longValue(String name, String v) {
        if (v == null || v.isBlank()) throw new ApiException(ErrorCode.PARAM_EMPTY, name);
        try {
            return Long.parseLong(v.trim());
        } catch (NumberFormatException e) {
            throw new ApiException(ErrorCode.PARAM_ERROR, name);
        }
    }

    static Long optionalLong(String name, String v) { return v == null || v.isBlank() ? null : longValue(name, v); }

    static Integer optionalInt(String name, String v) {
        Long l = optionalLong(name, v);
        if (l == null) return null;
        if (l < Integer.MIN_VALUE || l > Integer.MAX_VALUE) throw new ApiException(ErrorCode.PARAM_ERROR, name);
        return l.intValue();
    }

    static BigDecimal decimal(String name, String v) {
        if (v == null || v.isBlank()) throw new ApiException(ErrorCode.PARAM_EMPTY, name);
        try {
            return new BigDecimal(v.trim());
        } catch (NumberFormatException e) {
            throw new ApiException(ErrorCode.PARAM_ERROR, name);
        }
    }

    static ApiException tooLarge() {
        return new ApiException(ErrorCode.PARAM_VERIFICATION_FAILED, "form larger than " + ConsoleRoutes.MAX_FORM_BYTES + " bytes");
    }

    static ApiException malformed() {
        return new ApiException(ErrorCode.PARAM_VERIFICATION_FAILED, "malformed form");
    }
}
