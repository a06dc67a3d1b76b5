// fixture: the old naming style
