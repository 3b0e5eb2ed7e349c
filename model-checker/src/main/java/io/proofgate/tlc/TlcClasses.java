package io.proofgate.tlc;

import java.io.IOException;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.zip.ZipFile;

/**
 * TLC's classes, for {@link WarmTlc}: all of them initialised before the warm-up, and which are loaded after each run.
 * A class that a run loads may make strings of its own while it initialises, which {@link TlcStatics} cannot keep for
 * the next run; looking at loaded classes is on the safe side, since a class is loaded before it initialises. Where it
 * cannot be told ({@code java.lang} not opened to this code), every run counts as having loaded one; where TLC's
 * classes are not found at all, {@link WarmTlc} runs nothing.
 */
final class TlcClasses {

    /**
     * The model checker's packages, PlusCal's among them (SANY validates a module's algorithm while it parses): where
     * TLC is inside proofgate's own jar, the jar holds much else, and the typesetter's package is never run by a model
     * check.
     */
    private static final List<String> PACKAGES = List.of("tlc2/", "tla2sany/", "util/", "model/", "pcal/");

    private final List<String> names;
    private final ClassLoader loader;
    private final MethodHandle findLoaded; // ClassLoader.findLoadedClass, or null

    private TlcClasses(List<String> names, ClassLoader loader, MethodHandle findLoaded) {
        this.names = names;
        this.loader = loader;
        this.findLoaded = findLoaded;
    }

    /** Whether {@code className} is in one of TLC's packages. */
    static boolean isTlcClass(String className) {
        String path = className.replace('.', '/');
        return PACKAGES.stream().anyMatch(path::startsWith);
    }

    /** TLC's classes in the jar that holds {@code anyClass}, one of them. */
    static TlcClasses of(Class<?> anyClass) {
        List<String> names = new ArrayList<>();
        try (ZipFile jar =
                new ZipFile(Path.of(anyClass.getProtectionDomain().getCodeSource().getLocation().toURI()).toFile())) {
            jar.stream()
                    .map(e -> e.getName())
                    .filter(
                            n ->
                                    n.endsWith(".class")
                                            && !n.contains("-") // no module-info, no versioned copies
                                            && isTlcClass(n))
                    .forEach(n -> names.add(n.substring(0, n.length() - ".class".length()).replace('/', '.')));
            MethodHandle findLoaded =
                    MethodHandles.privateLookupIn(ClassLoader.class, MethodHandles.lookup())
                            .findVirtual(
                                    ClassLoader.class,
                                    "findLoadedClass",
                                    MethodType.methodType(Class.class, String.class));
            return new TlcClasses(names, anyClass.getClassLoader(), findLoaded);
        } catch (IOException | URISyntaxException | ReflectiveOperationException | RuntimeException e) {
            return new TlcClasses(names, anyClass.getClassLoader(), null);
        }
    }

    /**
     * Loads and initialises every class of the jar, so that none makes its strings during a run; returns those that
     * initialised (a class whose initialiser fails is left out).
     */
    List<Class<?>> initialiseAll() {
        List<Class<?>> classes = new ArrayList<>();
        for (String name : names) {
            try {
                classes.add(Class.forName(name, true, loader));
            } catch (Throwable e) {
                // a class TLC cannot load here (an optional dependency): no run of ours needs it
            }
        }
        return classes;
    }

    /** The names of those loaded now; where they cannot be told, a name no class has, new each call. */
    Set<String> loaded() {
        Set<String> loaded = new TreeSet<>();
        try {
            if (findLoaded != null) {
                for (String name : names) {
                    if ((Class<?>) findLoaded.invoke(loader, name) != null) {
                        loaded.add(name);
                    }
                }
                return loaded;
            }
        } catch (Throwable e) {
            // counted as unknown, below
        }
        loaded.add("unknown " + unknown++);
        return loaded;
    }

    private int unknown;
}
