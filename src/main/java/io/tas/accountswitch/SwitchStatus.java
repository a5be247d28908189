package io.tas.accountswitch;

/** §2.6 status of an account's switch to classic, spelled as on the wire. */
public enum SwitchStatus { process, success, fail }
