from openhands_tui.entry import main

if __name__ == "__main__":
    main()
