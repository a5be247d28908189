package io.tas.http;

/**
 * An observer of every answer the REST rows and the admin API send (issue 29: the contract test validates each one
 * against the OpenAPI document). None is installed in production: one volatile read per answer.
 */
public interface AnswerTap {
    /** Which document an answer belongs to. */
    enum Surface { PUBLIC, ADMIN }

    /**
     * @param template the catalog row's path, or the admin route's pattern ("/admin/v1/accounts/{uid}")
     * @param requestBody the request's body bytes (may be empty)
     * @param body the answer's bytes as sent
     */
    void answered(Surface surface, String method, String template, String rawQuery, byte[] requestBody, int status, byte[] body);

    /** A public row's handler read a parameter (required: through Params.require); batch lines' fields are not told. */
    default void parameterRead(String method, String path, String name, boolean required) {}

    /** A public row read an integer parameter in [min, max], defaultValue when absent (Params.intInRange). */
    default void parameterRange(String method, String path, String name, int min, int max, int defaultValue) {}

    /** An admin route read its JSON body into this Java type. */
    default void adminBodyRead(String method, String pattern, String type) {}

    /** The installed tap, or null. Tests install one for the whole JVM (D195). */
    static AnswerTap installed() { return Holder.tap; }

    static void install(AnswerTap tap) { Holder.tap = tap; }

    final class Holder {
        private static volatile AnswerTap tap;
        private Holder() {}
    }
}
