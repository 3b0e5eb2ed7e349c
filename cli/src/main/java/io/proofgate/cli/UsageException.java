package io.proofgate.cli;

/** Bad command-line arguments: reported in one line with exit code 2. */
final class UsageException extends Exception {
    UsageException(String message) {
        super(message);
    }
}
