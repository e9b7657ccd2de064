"""PHP: Composer scripts, PHPUnit, PHPStan, Psalm, PHP-CS-Fixer / PHP_CodeSniffer, ``require.php``."""

from __future__ import annotations

from .base import Ecosystem, RepoView, Target, load_json

__all__ = ["Php"]

_BIN = {"phpunit": "phpunit/phpunit", "phpstan": "phpstan/phpstan", "psalm": "vimeo/psalm",
        "php-cs-fixer": "friendsofphp/php-cs-fixer", "phpcs": "squizlabs/php_codesniffer",
        "phpcbf": "squizlabs/php_codesniffer", "pest": "pestphp/pest", "rector": "rector/rector"}


class Php(Ecosystem):
    name = "php"
    label = "PHP"
    languages = ("PHP",)
    detect = ("composer.json",)
    reads = ("composer.json", "phpunit.xml*", "phpstan.neon*", "psalm.xml*", ".php-cs-fixer*", "phpcs.xml*")
    package_manager = "composer"
    describes = (("composer.json", "description"),)
    programs = frozenset({"composer", "php", "vendor/bin/phpunit", "phpunit", "phpstan", "psalm", "php-cs-fixer",
                          "phpcs", "phpcbf", "pest"})
    builtins = {"composer": frozenset({"install", "update", "", "validate", "dump-autoload"})}
    tools = {"phpunit": "test", "pest": "test", "phpstan": "typecheck", "psalm": "typecheck",
             "php-cs-fixer": "format", "phpcs": "lint", "phpcbf": "format", "rector": "lint"}
    manifests = ("composer.json",)

    def targets(self, view: RepoView) -> list[Target]:
        text = view.files.get("composer.json", "")
        scripts = load_json(text).get("scripts")
        out: list[Target] = []
        for name, body in (scripts.items() if isinstance(scripts, dict) else []):
            body_text = " && ".join(map(str, body)) if isinstance(body, list) else str(body)
            where = view.cite_key("composer.json", "scripts", str(name))
            out.append(Target(str(name), f"composer {name}", body_text, where))
        return out

    def prove(self, argv: list[str], view: RepoView) -> str:
        if argv and argv[0] == "composer" and len(argv) > 1 and argv[1] == "run" and len(argv) > 2:
            argv = ["composer", *argv[2:]]
        program = argv[0].removeprefix("./").removeprefix("vendor/bin/") if argv else ""
        if program in _BIN:
            return self.declares(_BIN[program], view)
        return super().prove(argv, view)

    def versions(self, view: RepoView) -> tuple[str, ...]:
        require = load_json(view.files.get("composer.json", "")).get("require")
        php = require.get("php") if isinstance(require, dict) else None
        return (f"PHP {php}",) if isinstance(php, str) and len(php) <= 30 else ()

    def configured(self, view: RepoView) -> tuple[str, ...]:
        return tuple(tool for tool, pkg in _BIN.items() if self.declares(pkg, view) and tool != "phpcbf")

    def defaults(self, view: RepoView) -> dict[str, str]:
        out = {"setup": "composer install"}
        if self.declares(_BIN["phpunit"], view):
            out["test"] = "vendor/bin/phpunit"
        return out
