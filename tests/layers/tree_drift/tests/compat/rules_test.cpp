// fixture: a test folder that mirrors no src/ folder
