package io.proofgate.words;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;

/** Why a file could not be read or written, in words: the JDK's exceptions often say only the path. */
public final class FileProblems {

    private FileProblems() {}

    public static String words(IOException e) {
        return switch (e) {
            case NoSuchFileException missing -> "no such file";
            case java.nio.charset.CharacterCodingException notText ->
                    "not UTF-8 text"; // its own words are "Input length = 1"
            case AccessDeniedException denied -> "permission denied";
            case NotDirectoryException notDirectory -> "a part of the path is not a folder";
            case FileSystemException other when other.getReason() != null -> Outside.bare(other.getReason());
            case FileSystemException other -> "cannot be read";
            default -> e.getMessage() == null ? e.getClass().getSimpleName() : Outside.bare(e.getMessage());
        };
    }
}
