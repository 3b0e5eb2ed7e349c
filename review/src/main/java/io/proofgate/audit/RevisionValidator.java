package io.proofgate.audit;

import io.proofgate.namespace.RevisionCall;
import io.proofgate.replay.ReplayException;
import io.proofgate.words.Sha256;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

/**
 * One revision's validator, compiled from its sources and loaded in a class loader of its own, so that two revisions
 * run side by side in one JVM; it is driven through {@code proofgate replay}'s entry point ({@code
 * io.proofgate.replay.Replay.run}), whose output is the protocol's replay format. Its only libraries are the running
 * proofgate's (Jackson): a revision that needs others cannot be audited, and says so.
 *
 * <p>Compiled classes are kept under the cache folder by a hash of the sources, so an unchanged validator is compiled
 * once; a build is written beside its final name and moved in whole, so concurrent audits never read a half-written
 * one.
 */
final class RevisionValidator implements AutoCloseable {

    private static final String OWN_PACKAGES = "io.proofgate.";

    private final URLClassLoader loader;
    private final Method run;
    private final String sourceHash;

    private RevisionValidator(URLClassLoader loader, Method run, String sourceHash) {
        this.loader = loader;
        this.run = run;
        this.sourceHash = sourceHash;
    }

    /**
     * The validator of the revision in {@code revision} (the folder holding its modules: the validator's sources and
     * those of the modules below it that it has), compiled into (or found in) {@code cache}.
     */
    static RevisionValidator load(Path revision, Path cache, String side) throws IOException {
        if (!Files.isDirectory(revision.resolve(Revision.VALIDATOR.getFirst()))) {
            throw new AuditException(
                    "the " + side + " revision has no validator sources (" + Revision.VALIDATOR.getFirst() + ")");
        }
        List<Path> files = new ArrayList<>();
        for (String root : Revision.VALIDATOR) {
            if (Files.isDirectory(revision.resolve(root))) {
                try (Stream<Path> walk = Files.walk(revision.resolve(root))) {
                    walk.filter(p -> p.toString().endsWith(".java")).sorted().forEach(files::add);
                }
            }
        }
        String hash = hash(revision, files);
        Path classes = cache.resolve(hash);
        if (!Files.isDirectory(classes)) {
            compile(files, classes, side);
        }
        URLClassLoader loader =
                new URLClassLoader(
                        "validator-" + side,
                        new URL[] {classes.toUri().toURL()},
                        new LibrariesOnly(RevisionValidator.class.getClassLoader()));
        try {
            Method run = (Method) RevisionCall.REPLAY.in(name -> Class.forName(name, true, loader));
            return new RevisionValidator(loader, run, hash);
        } catch (ReflectiveOperationException | LinkageError e) {
            loader.close();
            throw new AuditException(
                    "the "
                            + side
                            + " validator has no "
                            + RevisionCall.REPLAY
                            + ", the entry point the audit replays through ("
                            + e
                            + ")");
        }
    }

    /** A hash of the sources' paths and bytes: equal for two revisions whose validators are the same. */
    String sourceHash() {
        return sourceHash;
    }

    /** What {@code proofgate replay} prints for the log, or "error: ..." when the validator refuses it as input. */
    String replay(String log) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            run.invoke(null, new ByteArrayInputStream(log.getBytes(StandardCharsets.UTF_8)), "log", out);
            return out.toString(StandardCharsets.UTF_8);
        } catch (InvocationTargetException e) {
            Throwable cause = e.getCause();
            if (cause.getClass().getName().equals(ReplayException.class.getName())) {
                return out.toString(StandardCharsets.UTF_8) + "error: " + cause.getMessage() + "\n";
            }
            throw new AuditException("the validator failed on a log (" + cause + "); log:\n" + log);
        } catch (IllegalAccessException e) {
            throw new AuditException("the validator's replay entry point is not public: " + e.getMessage());
        }
    }

    /** A class of this revision's validator, for surfaces that are not replay's (the page store). */
    Class<?> type(String name) throws ClassNotFoundException {
        return Class.forName(name, true, loader);
    }

    @Override
    public void close() throws IOException {
        loader.close();
    }

    private static void compile(List<Path> files, Path classes, String side) throws IOException {
        JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
        if (compiler == null) {
            throw new AuditException("the audit compiles each revision's validator and needs a JDK, not a JRE");
        }
        Files.createDirectories(classes.getParent());
        Path staging = Files.createTempDirectory(classes.getParent(), ".build-");
        try {
            List<String> args =
                    new ArrayList<>(
                            List.of(
                                    "-d",
                                    staging.toString(),
                                    "-proc:none",
                                    "-nowarn",
                                    "-encoding",
                                    "UTF-8",
                                    "--release",
                                    Integer.toString(Runtime.version().feature()),
                                    "-classpath",
                                    libraries()));
            files.forEach(f -> args.add(f.toString()));
            ByteArrayOutputStream errors = new ByteArrayOutputStream();
            int exit = compiler.run(null, OutputStream.nullOutputStream(), errors, args.toArray(String[]::new));
            if (exit != 0) {
                String first =
                        errors.toString(StandardCharsets.UTF_8)
                                .lines()
                                .filter(l -> l.contains("error:"))
                                .findFirst()
                                .orElse("exit " + exit);
                throw new AuditException(
                        "the " + side + " validator does not compile with proofgate's libraries: " + first);
            }
            try {
                Files.move(staging, classes, StandardCopyOption.ATOMIC_MOVE);
            } catch (FileAlreadyExistsException
                    | AtomicMoveNotSupportedException
                    | java.nio.file.DirectoryNotEmptyException e) {
                // another audit built the same sources first; theirs is as good as ours
            }
        } finally {
            if (Files.exists(staging)) {
                io.proofgate.check.FileTree.delete(staging);
            }
        }
    }

    /**
     * Where Jackson is: the running proofgate's class path (its own classes are not loaded from it, see LibrariesOnly).
     */
    private static String libraries() {
        return System.getProperty("java.class.path");
    }

    private static String hash(Path root, List<Path> files) throws IOException {
        Sha256.Fields hash = Sha256.fields().add(Runtime.version().toString());
        for (Path file : files) {
            hash.add(root.relativize(file).toString().replace('\\', '/'));
            hash.add(Files.readAllBytes(file));
        }
        return hash.hex().substring(0, 24);
    }

    /**
     * The parent of a revision's loader: the JDK and the libraries, never proofgate's own classes, so that a class the
     * revision lacks is an error and not the running version's.
     */
    private static final class LibrariesOnly extends ClassLoader {
        private final ClassLoader libraries;

        LibrariesOnly(ClassLoader libraries) {
            super("proofgate-libraries", ClassLoader.getPlatformClassLoader());
            this.libraries = libraries;
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            if (name.startsWith(OWN_PACKAGES)) {
                throw new ClassNotFoundException(name);
            }
            try {
                return getParent().loadClass(name);
            } catch (ClassNotFoundException e) {
                return libraries.loadClass(name);
            }
        }

        @Override
        public URL getResource(String name) {
            return name.startsWith(OWN_PACKAGES.replace('.', '/')) ? null : libraries.getResource(name);
        }
    }
}
