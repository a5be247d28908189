package io.tas.error;

/**
 * Every result code the service answers with, grouped by range. Codes and messages are the real
 * platform's (../shared/reference/wire-facts.md §3) unless the entry says it is our own choice.
 * {0} is filled from the exception's arguments.
 */
public enum ErrorCode {
    // --- success
    SUCCESS("00000", "success", 200),

    // --- rate limit (§5 of wire facts: HTTP 429, body code "429")
    TOO_MANY_REQUESTS("429", "Too Many Requests", 429),

    // --- authentication 40001-40038
    ACCESS_KEY_EMPTY("40001", "ACCESS_KEY cannot be empty", 400),
    ACCESS_SIGN_EMPTY("40002", "ACCESS_SIGN cannot be empty", 400),
    ACCESS_TIMESTAMP_INVALID("40005", "Invalid ACCESS_TIMESTAMP", 400),
    ACCESS_KEY_INVALID("40006", "Invalid ACCESS_KEY", 400),
    CONTENT_TYPE_INVALID("40007", "Invalid Content_Type", 400),
    TIMESTAMP_EXPIRED("40008", "Request timestamp expired", 400),
    SIGNATURE_ERROR("40009", "sign signature error", 400),
    ACCESS_PASSPHRASE_EMPTY("40011", "ACCESS_PASSPHRASE cannot be empty", 400),
    PASSPHRASE_INCORRECT("40012", "apikey/password is incorrect", 400),
    USER_STATUS_ABNORMAL("40013", "User status is abnormal", 400),
    PERMISSION_DENIED("40014", "Incorrect permissions, need {0} permissions", 400),
    INVALID_IP("40018", "Invalid IP", 400),

    // --- parameters
    PARAM_VERIFICATION_FAILED("40017", "Parameter verification failed {0}", 400),
    PARAM_EMPTY("40019", "Parameter {0} cannot be empty", 400),
    PARAM_ERROR("40020", "Parameter {0} error", 400),
    PARAM_NOT_EXIST("40034", "Parameter {0} does not exist", 400),
    // Our own code (next to 40099): a coin the service cannot value, since it never invents a price.
    PRICE_UNAVAILABLE("40098", "No price for {0}", 400),
    PARAM_VERIFICATION_EXCEPTION("40808", "Parameter verification exception {0}", 400),

    // --- account scope. Wire facts name no code for these; 40068 is the real family's
    //     "Disable subaccount access" (decisions.md: main-only and parent-only rows).
    SUB_ACCOUNT_FORBIDDEN("40068", "Disable subaccount access", 400),
    // The real platform's answers (decisions.md D6): a classic account on a v3 unified row gets 40084, which
    // clients read to detect a classic key (hummingbot bitget_constants.py, QuantProcessing/exchanges
    // bitget/private_init_test.go); a unified account on a v2 classic row gets 40085 (ccxt issue #26838).
    CLASSIC_ACCOUNT_ON_UNIFIED_API("40084", "You are in Classic Account mode, and the Unified Account API is not supported at this time", 400),
    UNIFIED_ACCOUNT_ON_CLASSIC_API("40085", "You are in Unified Account mode, and the Classic Account API is not supported at this time", 400),

    // --- routing
    URL_NOT_FOUND("40404", "Request URL NOT FOUND", 400),
    // Our own code: the catalog lists the row but its handler lands in a later issue.
    NOT_IMPLEMENTED("40099", "Endpoint {0} is not implemented yet in this service", 400),

    // --- unified account business codes 25xxx
    // The UTA family's own (wire facts §3); decisions.md D44: hold mode with open positions or pending orders.
    POSITION_MODE_SWITCH_UNSUPPORTED("25010", "Unsupported position mode switch", 400),
    TRADING_PAIR_NOT_EXIST("25100", "Trading pair {0} does not exist", 400),
    // Issue 25, the UTA order family (uta/error-code/restapi.md in the docs mirror named by order-entry-wire.md).
    INSUFFICIENT_MARGIN("25203", "Insufficient margin", 400),
    ORDER_NOT_EXIST("25204", "Order does not exist", 400),
    INSUFFICIENT_LIQUIDITY("25209", "Insufficient market liquidity, please try again later", 400),
    MAX_ORDERS("25211", "Exceeds the limit of {0} maximum orders", 400),
    DUPLICATE_CLIENT_OID("25212", "Duplicate clientOid", 400),
    NO_POSITION_TO_CLOSE("25227", "No position available to close", 400),
    CLOSE_EXCEEDS_POSITION("25231", "Close quantity cannot exceed the held position quantity", 400),
    PRICE_STEP("25244", "Price should be a multiple of {0}", 400),
    TP_LONG_ABOVE_ENTRY("25579", "For long position TP/SL (close long), the take-profit trigger price must be greater than the average entry price", 400),
    SL_LONG_BELOW_ENTRY("25580", "For long position TP/SL (close long), the stop-loss trigger price must be less than the average entry price", 400),
    TP_SHORT_BELOW_ENTRY("25581", "For short position TP/SL (close short), the take-profit trigger price must be less than the average entry price", 400),
    SL_SHORT_ABOVE_ENTRY("25582", "For short position TP/SL (close short), the stop-loss trigger price must be greater than the average entry price", 400),
    TPSL_UNSUPPORTED("25593", "The current trading type does not support TP/SL settings", 400),
    STRATEGY_NOT_EXIST("25597", "Strategy does not exist or has already been stopped", 400),
    TPSL_NO_POSITION("25601", "Position does not exist; cannot set TP/SL", 400),
    ORDER_NOT_MODIFIABLE("25568", "The order does not meet the modification requirements.", 400),
    MODIFY_UNCHANGED("25571", "The modification price and qty is the same as the original value. Please adjust and try again.", 400),
    QTY_PRECISION("25610", "Order amount does not meet precision requirements", 400),
    BELOW_MIN_QTY("25611", "Order quantity must be greater than the minimum order amount", 400),
    NOT_UNIFIED_ACCOUNT("25245", "The account is not the unified account mode", 400),
    // bitget-api's API_ERROR_CODE.INSUFFICIENT_BALANCE_V3; the message is ours.
    INSUFFICIENT_BALANCE("25202", "Insufficient balance", 400),

    // --- classic spot order family 43xxx/45xxx (issue 26; order-entry-wire.md's error table, ccxt 4.5.84's exact-code
    //     map: 43012 InsufficientFunds, 43001 OrderNotFound, 45110 InvalidOrder). Messages are ours (D172).
    SPOT_ORDER_NOT_EXIST("43001", "The order does not exist", 400),
    SPOT_INSUFFICIENT_BALANCE("43012", "Insufficient balance", 400),
    SPOT_DUPLICATE_CLIENT_OID("45034", "Duplicate clientOid", 400),
    SPOT_BELOW_MIN_AMOUNT("45110", "Less than the minimum order amount", 400),

    // --- classic futures order family (issue 26; order-entry-wire.md's error table, ccxt 4.5.84's exact-code map: 40762
    //     InsufficientFunds, 40768 and 40109 OrderNotFound). Messages are ours (D173).
    MIX_NO_POSITION_TO_CLOSE("22002", "No position to close", 400),
    MIX_ORDER_NOT_FOUND("40109", "The data of the order cannot be found, please confirm the order number", 400),
    MIX_INSUFFICIENT_BALANCE("40762", "The order amount exceeds the balance", 400),
    MIX_ORDER_NOT_EXIST("40768", "Order does not exist", 400),
    MIX_DUPLICATE_CLIENT_OID("40786", "Duplicate clientOid", 400),

    // --- server side: a failure of ours, answered with HTTP 400 like the platform (D93); never a stack trace
    SYSTEM_ERROR("40015", "System is abnormal, please try again later", 400); // wire facts: 400, like every code

    private final String code;
    private final String template;
    private final int httpStatus;

    ErrorCode(String code, String template, int httpStatus) {
        this.code = code;
        this.template = template;
        this.httpStatus = httpStatus;
    }

    public String code() { return code; }
    public String template() { return template; }
    public int httpStatus() { return httpStatus; }

    public String message(Object... args) {
        String msg = template;
        for (int i = 0; i < args.length; i++) {
            msg = msg.replace("{" + i + "}", String.valueOf(args[i]));
        }
        // A template whose argument was not given keeps no dangling placeholder.
        return msg.replaceAll("\\s*\\{\\d}", "");
    }
}
