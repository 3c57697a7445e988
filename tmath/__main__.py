from tmath.cli import main

main()
