# main.py: start the dice hub unless safe mode asked for the REPL.
import safemode

if not safemode.check():
    import hub

    hub.main()
