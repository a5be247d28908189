package io.tas.error;

/** The one exception domain code throws for a client-visible error; the HTTP layer writes the envelope. */
public final class ApiException extends RuntimeException {
    private final ErrorCode error;

    public ApiException(ErrorCode error, Object... args) {
        super(error.message(args), null, false, false); // no stack trace: these are expected outcomes
        this.error = error;
    }

    public ErrorCode error() { return error; }
}
